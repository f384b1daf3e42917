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

/** A model message as logged, with the version (`branch`, runtime/fold/versions.ts) it belongs to. */
export interface LoggedModelMessage {
  branch?: string;
  message: ModelMessage;
}

/** Every `model.message` of a log, with its version, in seq order. */
export function modelLogOf(events: Iterable<ThreadEvent>): LoggedModelMessage[] {
  const out: LoggedModelMessage[] = [];
  for (const event of events) if (event.type === 'model.message') out.push({ ...(event.branch !== undefined ? { branch: event.branch } : {}), message: event.message as ModelMessage });
  return out;
}

/**
 * The conversation a model sees when versions are shown: the logged messages of the shown
 * path's nodes (`shownNodes`), in seq order; a message without a version (logged before versions
 * existed) is always in.
 */
export function historyFor(log: readonly LoggedModelMessage[], shown: ReadonlySet<string>): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (const entry of log) if (entry.branch === undefined || shown.has(entry.branch)) out.push(entry.message);
  return out;
}
