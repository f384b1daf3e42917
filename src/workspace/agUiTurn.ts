import type { AbstractAgent } from '@ag-ui/client';
import type { ResumeEntry, Tool } from '@ag-ui/core';
import type { CapabilityResult } from '../runtime/envelope';
import type { DriverInfo } from '../runtime/events';
import { createId } from '../runtime/ids';
import { invoke } from '../runtime/invoke';
import type { Registry } from '../runtime/registry';
import { closeOpenCalls } from './agUiCalls';
import { waitOn } from './agUiInterrupts';
import type { AgUiModules } from './agUiPeer';
import { roundSubscriber, type AgUiHostEvent } from './agUiRound';
import { parseArgs, type AgUiThread } from './agUiThread';

/** What every turn of the workspace shares. */
export interface TurnSettings {
  /** The page's capabilities, run in the page when the agent calls them. */
  registry: Registry;
  /** Those capabilities as the agent's frontend tools. */
  tools: Tool[];
  driver: DriverInfo;
  maxRounds: number;
  onState?: (threadId: string, state: unknown) => void;
  onEvent?: (threadId: string, event: AgUiHostEvent) => void;
}

/**
 * One run of the agent (and the frontend-tool rounds it leads to), as one
 * turn: started, each round's events translated, the page's tools run between
 * rounds, and done with how it ended (answered, waiting on interrupts, failed
 * or stopped).
 */
export async function runAgUiTurn(
  settings: TurnSettings,
  t: AgUiThread,
  threadId: string,
  agent: AbstractAgent,
  EventType: AgUiModules['EventType'],
  resume?: ResumeEntry[],
): Promise<void> {
  const { registry, tools, driver } = settings;
  const { emit } = t.log;
  const turnId = createId('turn');
  const controller = new AbortController();
  t.running = controller;
  emit({ type: 'turn.started', turn_id: turnId, driver });
  let outcome: 'answered' | 'waiting' | 'failed' | 'cancelled' = 'answered';
  const steps = new Map<string, string>();
  try {
    let nextResume = resume;
    for (let round = 0; round < settings.maxRounds; round++) {
      const run = roundSubscriber({ t, threadId, turnId, driver, registry, EventType, steps, ...(settings.onState ? { onState: settings.onState } : {}), ...(settings.onEvent ? { onEvent: settings.onEvent } : {}) });
      const abort = () => agent.abortRun();
      controller.signal.addEventListener('abort', abort, { once: true });
      try {
        await agent.runAgent({ runId: createId('run'), tools, ...(nextResume ? { resume: nextResume } : {}) }, run.subscriber);
      } catch (error) {
        if (controller.signal.aborted) {
          outcome = 'cancelled';
          break;
        }
        run.round.failed = { message: error instanceof Error ? error.message : String(error) };
      } finally {
        controller.signal.removeEventListener('abort', abort);
      }
      nextResume = undefined;
      const { failed, interrupts, frontendCalls, cancelled } = run.round;
      if (cancelled) outcome = 'cancelled';
      if (failed) {
        emit({ type: 'turn.error', turn_id: turnId, code: failed.code ?? 'agent_error', message: `The agent failed: ${failed.message}`, recoverable: true });
        outcome = 'failed';
        break;
      }
      if (interrupts.length) {
        for (const interrupt of interrupts) waitOn(t, turnId, interrupt, (name) => registry.get(name)?.title ?? name);
        outcome = 'waiting';
        break;
      }
      if (!frontendCalls.length || outcome === 'cancelled') break;
      // The page runs the tools the agent asked for, then the run goes on with their results.
      for (const call of frontendCalls) {
        const result = await invoke(call.name, parseArgs(call.args), { registry, emit, threadKey: threadId, invocationId: call.id, turnId, callId: call.id, signal: controller.signal });
        agent.messages.push({ id: createId('msg'), role: 'tool', toolCallId: call.id, content: resultText(result) } as never);
      }
      if (controller.signal.aborted) {
        outcome = 'cancelled';
        break;
      }
    }
  } finally {
    // A run that failed or was stopped without its RUN_ERROR / RUN_FINISHED (a network failure, Stop) leaves no call running.
    if (outcome === 'failed' || outcome === 'cancelled') closeOpenCalls(t, outcome);
    for (const [, id] of steps) emit({ type: 'capability.error', invocation_id: id, capability: 'agent.step', error: { code: 'interrupted', message: 'The run ended before this step finished.' }, recoverable: false });
    emit({ type: 'turn.done', turn_id: turnId, outcome });
    if (t.running === controller) t.running = null;
  }
}

/** A frontend tool's result as the text of the agent's tool message. */
function resultText(result: CapabilityResult): string {
  const text = result.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
  if (result.structuredContent !== undefined) return JSON.stringify({ text, data: result.structuredContent, ...(result.isError ? { isError: true } : {}) });
  return result.isError ? JSON.stringify({ text, isError: true }) : text;
}
