import type { CapabilityResult } from './envelope';
import type { Emit } from './events';
import { createId } from './ids';
import type { ModelDriver, ModelMessage } from './model';
import type { CapabilityInfo } from './registry';

export interface TurnOptions {
  /** The user's message. */
  text: string;
  driver: ModelDriver;
  capabilities: readonly CapabilityInfo[];
  /** The conversation so far; the turn appends to a copy and returns it. */
  history: readonly ModelMessage[];
  emit: Emit;
  /** Runs a capability the model asked for (the workspace wires cancellation and jobs). */
  invoke(capability: string, args: unknown, turnId: string): Promise<CapabilityResult>;
  /** Stops the model stream; the transcript says the turn was stopped. */
  signal?: AbortSignal;
  /** @default a fresh `turn_…` id */
  turnId?: string;
  /** Model calls in one turn before it gives up. @default 8 */
  maxSteps?: number;
}

/**
 * One user turn: the user's row, then model steps until the model answers
 * without asking for a capability. Model errors become a `turn.error` row;
 * nothing the user typed is lost. Resolves with the updated conversation.
 */
export async function runTurn(options: TurnOptions): Promise<ModelMessage[]> {
  const { text, driver, capabilities, emit, maxSteps = 8 } = options;
  const turnId = options.turnId ?? createId('turn');
  const signal = options.signal ?? new AbortController().signal;
  const messages: ModelMessage[] = [...options.history, { role: 'user', text }];
  emit({ type: 'message.created', message_id: createId('msg'), role: 'user', text, turn_id: turnId });
  emit({ type: 'turn.started', turn_id: turnId, driver: driver.info });
  let outcome: 'answered' | 'invoked' | 'stopped' | 'failed' = 'answered';
  try {
    outcome = await loop();
  } finally {
    emit({ type: 'turn.done', turn_id: turnId, outcome });
  }
  return messages;

  async function loop(): Promise<'answered' | 'invoked' | 'stopped' | 'failed'> {
    try {
      for (let step = 0; step < maxSteps; step++) {
        let messageId: string | null = null;
        let reply = '';
        const calls: { capability: string; args: unknown }[] = [];
        for await (const chunk of driver.respond({ messages, capabilities, signal })) {
          if (signal.aborted) break;
          if (chunk.type === 'text') {
            if (messageId === null) {
              messageId = createId('msg');
              emit({ type: 'message.created', message_id: messageId, role: 'assistant', text: '', turn_id: turnId, driver: driver.info });
            }
            reply += chunk.text;
            emit({ type: 'message.delta', message_id: messageId, delta: chunk.text });
          } else {
            calls.push({ capability: chunk.capability, args: chunk.args });
          }
        }
        if (messageId !== null) {
          emit({ type: 'message.done', message_id: messageId });
          messages.push({ role: 'assistant', text: reply });
        }
        if (signal.aborted) return stopped();
        if (calls.length === 0) return step === 0 ? 'answered' : 'invoked';
        for (const call of calls) {
          const result = await options.invoke(call.capability, call.args, turnId);
          const title = capabilities.find((c) => c.name === call.capability)?.title ?? call.capability;
          messages.push({ role: 'tool', capability: call.capability, title, args: call.args, result });
        }
      }
      emit({
        type: 'turn.error',
        turn_id: turnId,
        code: 'too_many_steps',
        message: `The model asked for more than ${maxSteps} steps in one turn, so the turn was ended.`,
        recoverable: true,
      });
      return 'failed';
    } catch (error) {
      // Drivers honour the signal by rejecting (fetch, SDK streams): that is a stop, not a model failure.
      if (signal.aborted) return stopped();
      const message = error instanceof Error ? error.message : String(error);
      emit({ type: 'turn.error', turn_id: turnId, code: 'model_error', message: `${driver.info.label} failed: ${message}`, recoverable: true });
      return 'failed';
    }
  }

  function stopped(): 'stopped' {
    emit({ type: 'turn.error', turn_id: turnId, code: 'stopped', message: 'Stopped before the reply finished.', recoverable: true });
    return 'stopped';
  }
}
