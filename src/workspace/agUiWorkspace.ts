import type { AbstractAgent, AgentSubscriber } from '@ag-ui/client';
import type { BaseEvent, Interrupt, ResumeEntry, Tool } from '@ag-ui/core';
import type { CapabilityDescriptor } from '../runtime/capability';
import { publishedSchema } from '../runtime/doors/mcpTools';
import type { CapabilityResult } from '../runtime/envelope';
import { createEventLog, type EventLog } from '../runtime/eventLog';
import type { DriverInfo, ThreadEvent } from '../runtime/events';
import { createId } from '../runtime/ids';
import { invoke } from '../runtime/invoke';
import { createRegistry } from '../runtime/registry';
import { loadAgUi, type AgUiModules } from './agUiPeer';
import type { DecisionRequest, WorkspaceAdapter } from './types';

export interface AgUiWorkspaceOptions {
  /** The agent's AG-UI endpoint (an `HttpAgent` is made per thread). */
  url?: string;
  /** Headers for `url` (e.g. an Authorization header). */
  headers?: Record<string, string>;
  /** Or an agent of your own (any `AbstractAgent`): one per thread, made by the function or cloned from the instance. */
  agent?: AbstractAgent | ((threadId: string) => AbstractAgent);
  /** The page's own capabilities: offered to the agent as frontend tools and run in the page when it calls them. */
  capabilities?: readonly CapabilityDescriptor[];
  /** Shown as the model badge. @default { id: 'ag-ui', label: 'AG-UI agent' } */
  driver?: DriverInfo;
  /** Hears the agent's shared state after each snapshot or delta. */
  onState?: (threadId: string, state: unknown) => void;
  /** Frontend-tool rounds one turn may take before it stops. @default 8 */
  maxRounds?: number;
}

interface AgUiThread {
  /** Made on the thread's first message, once the AG-UI packages are loaded. */
  agent: AbstractAgent | null;
  log: EventLog;
  /** Tool calls by id: name and streamed arguments. */
  calls: Map<string, { name: string; args: string }>;
  /** Pending interrupts by id, from the last run. */
  interrupts: Map<string, Interrupt & { kind: 'approval' | 'question' }>;
  running: AbortController | null;
}

/**
 * A `WorkspaceAdapter` that runs `<ChatSurface>` on any AG-UI agent (LangGraph,
 * Mastra, CrewAI, Pydantic AI behind AG-UI, or your own), through the
 * official `@ag-ui/client`: text messages stream into assistant rows; tool
 * calls become invocation cards (arguments streamed into the card's output,
 * then the result); steps show in the cast row while they run; a run that
 * ends on interrupts waits on approval rows (an interrupt tied to a tool
 * call) or question rows (any other), and the answer resumes the run; state
 * snapshots and deltas reach `onState`. The page's `capabilities` are
 * offered to the agent as frontend tools: when it calls one, it runs in the
 * page (validated like any call) and the run goes on with its result.
 * @example
 * const workspace = createAgUiWorkspace({ url: 'https://agents.example.com/awp', capabilities: [addNote] });
 * <ChatSurface workspace={workspace} />
 */
export function createAgUiWorkspace(options: AgUiWorkspaceOptions): WorkspaceAdapter {
  if (!options.url === !options.agent) throw new TypeError('createAgUiWorkspace: give either url or agent.');
  const registry = createRegistry([...(options.capabilities ?? [])]);
  const driver = options.driver ?? { id: 'ag-ui', label: 'AG-UI agent' };
  const maxRounds = options.maxRounds ?? 8;
  const tools: Tool[] = registry.describe().map((info) => ({ name: info.name, description: info.description, parameters: publishedSchema(info.inputSchema) }));
  const threads = new Map<string, AgUiThread>();
  let agents = 0;

  const makeAgent = (threadId: string, HttpAgent: AgUiModules['HttpAgent']): AbstractAgent => {
    if (options.url) return new HttpAgent({ url: options.url, threadId, ...(options.headers ? { headers: options.headers } : {}) });
    const given = options.agent!;
    if (typeof given === 'function') return given(threadId);
    const agent = agents++ === 0 ? given : (given.clone() as AbstractAgent);
    agent.threadId = threadId;
    return agent;
  };
  const thread = (threadId: string): AgUiThread => {
    let found = threads.get(threadId);
    if (!found) {
      found = { agent: null, log: createEventLog(), calls: new Map(), interrupts: new Map(), running: null };
      threads.set(threadId, found);
    }
    return found;
  };
  /** The thread's agent, made once `@ag-ui/client` is loaded (a missing peer rejects with `MissingPeerError`). */
  const agentOf = async (t: AgUiThread, threadId: string): Promise<AbstractAgent> => {
    const { HttpAgent } = await loadAgUi();
    return (t.agent ??= makeAgent(threadId, HttpAgent));
  };
  const titleOf = (name: string) => registry.get(name)?.title ?? name;

  /** One run of the agent (and the frontend-tool rounds it leads to), as one turn. */
  const runTurn = async (threadId: string, resume?: ResumeEntry[]) => {
    const t = thread(threadId);
    const agent = await agentOf(t, threadId);
    const { EventType } = await loadAgUi();
    const { emit } = t.log;
    const turnId = createId('turn');
    const controller = new AbortController();
    t.running = controller;
    emit({ type: 'turn.started', turn_id: turnId, driver });
    let outcome: 'answered' | 'waiting' | 'failed' | 'stopped' = 'answered';
    const steps = new Map<string, string>();
    try {
      let nextResume = resume;
      for (let round = 0; round < maxRounds; round++) {
        const frontendCalls: { id: string; name: string; args: string }[] = [];
        let interrupts: Interrupt[] = [];
        let failed: { message: string; code?: string } | null = null;
        const subscriber: AgentSubscriber = {
          onEvent: ({ event }) => {
            const e = event as BaseEvent & Record<string, unknown>;
            switch (event.type) {
              case EventType.TEXT_MESSAGE_START:
                emit({ type: 'message.created', message_id: String(e.messageId), role: 'assistant', text: '', turn_id: turnId, driver });
                break;
              case EventType.TEXT_MESSAGE_CONTENT:
                emit({ type: 'message.delta', message_id: String(e.messageId), delta: String(e.delta) });
                break;
              case EventType.TEXT_MESSAGE_END:
                emit({ type: 'message.done', message_id: String(e.messageId) });
                break;
              case EventType.TOOL_CALL_START: {
                const id = String(e.toolCallId);
                const name = String(e.toolCallName);
                t.calls.set(id, { name, args: '' });
                // A frontend tool's card is opened by `invoke` when it runs in the page.
                if (!registry.get(name)) emit({ type: 'capability.started', invocation_id: id, capability: name, title: titleOf(name), args: {}, turn_id: turnId, call_id: id });
                break;
              }
              case EventType.TOOL_CALL_ARGS: {
                const call = t.calls.get(String(e.toolCallId));
                if (!call) break;
                call.args += String(e.delta);
                if (!registry.get(call.name)) emit({ type: 'capability.output', invocation_id: String(e.toolCallId), stream: 'log', text: String(e.delta) });
                break;
              }
              case EventType.TOOL_CALL_END: {
                const id = String(e.toolCallId);
                const call = t.calls.get(id);
                if (call && registry.get(call.name)) frontendCalls.push({ id, ...call });
                break;
              }
              case EventType.TOOL_CALL_RESULT: {
                const id = String(e.toolCallId);
                const call = t.calls.get(id);
                if (!call || registry.get(call.name)) break;
                emit({ type: 'capability.done', invocation_id: id, result: { content: [{ type: 'text', text: String(e.content) }] } });
                break;
              }
              case EventType.STEP_STARTED: {
                const id = createId('step');
                const name = String(e.stepName);
                steps.set(name, id);
                emit({ type: 'capability.started', invocation_id: id, capability: 'agent.step', title: name, args: {}, turn_id: turnId, actor: { id: 'agent', name: driver.label } });
                break;
              }
              case EventType.STEP_FINISHED: {
                const id = steps.get(String(e.stepName));
                if (!id) break;
                steps.delete(String(e.stepName));
                emit({ type: 'capability.done', invocation_id: id, result: { content: [{ type: 'text', text: `${String(e.stepName)} finished.` }] } });
                break;
              }
              case EventType.RUN_ERROR:
                failed = { message: String(e.message), ...(typeof e.code === 'string' ? { code: e.code } : {}) };
                break;
              case EventType.RUN_FINISHED: {
                const finished = e.outcome as { type?: string; interrupts?: Interrupt[] } | undefined;
                if (finished?.type === 'interrupt') interrupts = finished.interrupts ?? [];
                if (finished?.type === 'cancelled') outcome = 'stopped';
                break;
              }
              default:
                break;
            }
          },
          onStateChanged: ({ state }) => options.onState?.(threadId, state),
        };
        const abort = () => agent.abortRun();
        controller.signal.addEventListener('abort', abort, { once: true });
        try {
          await agent.runAgent({ runId: createId('run'), tools, ...(nextResume ? { resume: nextResume } : {}) }, subscriber);
        } catch (error) {
          if (controller.signal.aborted) {
            outcome = 'stopped';
            break;
          }
          failed = { message: error instanceof Error ? error.message : String(error) };
        } finally {
          controller.signal.removeEventListener('abort', abort);
        }
        nextResume = undefined;
        if (failed) {
          emit({ type: 'turn.error', turn_id: turnId, code: failed.code ?? 'agent_error', message: `The agent failed: ${failed.message}`, recoverable: true });
          outcome = 'failed';
          break;
        }
        if (interrupts.length) {
          for (const interrupt of interrupts) waitOn(t, turnId, interrupt);
          outcome = 'waiting';
          break;
        }
        if (!frontendCalls.length || (outcome as string) === 'stopped') break;
        // The page runs the tools the agent asked for, then the run goes on with their results.
        for (const call of frontendCalls) {
          const result = await invoke(call.name, parseArgs(call.args), { registry, emit, threadId, invocationId: call.id, turnId, callId: call.id, signal: controller.signal });
          agent.messages.push({ id: createId('msg'), role: 'tool', toolCallId: call.id, content: resultText(result) } as never);
        }
        if (controller.signal.aborted) {
          outcome = 'stopped';
          break;
        }
      }
    } finally {
      for (const [, id] of steps) emit({ type: 'capability.error', invocation_id: id, capability: 'agent.step', error: { code: 'interrupted', message: 'The run ended before this step finished.' }, recoverable: false });
      emit({ type: 'turn.done', turn_id: turnId, outcome });
      if (t.running === controller) t.running = null;
    }
  };

  /** An interrupt as a row that waits: an approval for a tool call, else a question. */
  const waitOn = (t: AgUiThread, turnId: string, interrupt: Interrupt) => {
    const call = interrupt.toolCallId ? t.calls.get(interrupt.toolCallId) : undefined;
    const reason = interrupt.message ?? interrupt.reason;
    if (call) {
      t.interrupts.set(interrupt.id, { ...interrupt, kind: 'approval' });
      t.log.emit({ type: 'approval.requested', approval_id: interrupt.id, capability: call.name, title: titleOf(call.name), args: parseArgs(call.args), turn_id: turnId, call_id: interrupt.toolCallId!, reason });
      return;
    }
    t.interrupts.set(interrupt.id, { ...interrupt, kind: 'question' });
    const choices = (interrupt.responseSchema?.enum as unknown[] | undefined)?.filter((v): v is string => typeof v === 'string') ?? [];
    t.log.emit({ type: 'clarify.requested', question_id: interrupt.id, turn_id: turnId, question: reason, options: choices.map((value) => ({ label: value, value })) });
  };

  return {
    manifest: { capabilities: registry.describe(), driver, alignment: 'strict', anticipation: {} },
    async send({ threadId, text }) {
      const t = thread(threadId);
      const id = createId('msg');
      t.log.emit({ type: 'message.created', message_id: id, role: 'user', text });
      (await agentOf(t, threadId)).messages.push({ id, role: 'user', content: text });
      await runTurn(threadId);
    },
    invoke: ({ threadId, capability, args }): Promise<CapabilityResult> => invoke(capability, args, { registry, emit: thread(threadId).log.emit, threadId }),
    cancel({ threadId }) {
      threads.get(threadId)?.running?.abort();
    },
    async decide(request: DecisionRequest) {
      const t = thread(request.threadId);
      const interrupt = t.interrupts.get(request.id);
      if (!interrupt) return;
      t.interrupts.delete(request.id);
      let entry: ResumeEntry;
      if (interrupt.kind === 'approval') {
        const approved = request.decision === 'approve';
        t.log.emit({ type: 'approval.resolved', approval_id: request.id, decision: approved ? 'approved' : 'denied' });
        entry = approved ? { interruptId: request.id, status: 'resolved', payload: { approved: true } } : { interruptId: request.id, status: 'cancelled' };
      } else {
        const answer = request.answer ?? '';
        t.log.emit({ type: 'clarify.answered', question_id: request.id, answer });
        entry = request.decision === 'dismiss' ? { interruptId: request.id, status: 'cancelled' } : { interruptId: request.id, status: 'resolved', payload: { answer } };
      }
      await runTurn(request.threadId, [entry]);
    },
    setView({ threadId, view }) {
      thread(threadId).log.emit({ type: 'view.changed', view });
    },
    subscribe(threadId, listener: (event: ThreadEvent) => void, subscribeOptions) {
      return thread(threadId).log.subscribe(listener, subscribeOptions?.since ?? 0);
    },
  };
}

function parseArgs(text: string): unknown {
  if (!text.trim()) return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { _unparsed: text };
  }
}

function resultText(result: CapabilityResult): string {
  const text = result.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
  if (result.structuredContent !== undefined) return JSON.stringify({ text, data: result.structuredContent, ...(result.isError ? { isError: true } : {}) });
  return result.isError ? JSON.stringify({ text, isError: true }) : text;
}
