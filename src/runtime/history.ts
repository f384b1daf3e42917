import type { Emit, ThreadEvent } from './events';
import type { ModelMessage } from './model';

/**
 * Appends a message to the model's conversation and logs it as a
 * `model.message` event: the log is where the history lives, so a restarted
 * server (or another instance) rebuilds exactly the conversation built live.
 */
export function recordMessage(messages: ModelMessage[], emit: Emit, turnId: string | undefined, message: ModelMessage): void {
  messages.push(message);
  emit({ type: 'model.message', ...(turnId ? { turn_id: turnId } : {}), message: message as never });
}

/**
 * The conversation a model sees, from a thread's events: its `model.message`
 * events in seq order. The same function serves a live thread (fed event by
 * event) and a thread rehydrated from its log.
 * @example
 * const history = historyOf(await events.read(ref));
 */
export function historyOf(events: Iterable<ThreadEvent>): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (const event of events) appendHistory(out, event);
  return out;
}

/** Feeds one event to a history built by `historyOf`. */
export function appendHistory(history: ModelMessage[], event: ThreadEvent): void {
  if (event.type === 'model.message') history.push(event.message as ModelMessage);
}
