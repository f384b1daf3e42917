import type { Emit, ThreadEvent } from './events';

export type EventListener = (event: ThreadEvent) => void;

/** One thread's append-only event log: it stamps `seq` and `ts` and fans events out. */
export interface EventLog {
  /** Stamps and appends an event, then tells every listener. */
  emit: Emit;
  /** Events with `seq > since`, in order. */
  since(seq?: number): readonly ThreadEvent[];
  /** Replays events after `since`, then delivers new ones; returns an unsubscribe function. */
  subscribe(listener: EventListener, since?: number): () => void;
  /** The seq of the last event, 0 when empty. */
  readonly lastSeq: number;
}

export interface EventLogOptions {
  /** Clock for `ts`. @default Date.now */
  now?: () => number;
}

/**
 * Creates an in-memory event log.
 * @example
 * const log = createEventLog();
 * log.subscribe((e) => console.log(e.seq, e.type));
 * log.emit({ type: 'message.created', message_id: 'm1', role: 'user', text: 'hi' });
 */
export function createEventLog({ now = Date.now }: EventLogOptions = {}): EventLog {
  const events: ThreadEvent[] = [];
  const listeners = new Set<EventListener>();
  /** The listeners as an array, made again only when one comes or goes (not on every event of a stream). */
  let snapshot: readonly EventListener[] | null = null;

  const emit: Emit = (input) => {
    const event = { ...input, seq: events.length + 1, ts: now() } as ThreadEvent;
    events.push(event);
    deliverTo((snapshot ??= [...listeners]), event);
    return event;
  };

  return {
    emit,
    since: (seq = 0) => (seq <= 0 ? events.slice() : events.slice(seq)),
    subscribe(listener, since) {
      if (since !== undefined) for (const event of events.slice(Math.max(0, since))) listener(event);
      listeners.add(listener);
      snapshot = null;
      return () => {
        listeners.delete(listener);
        snapshot = null;
      };
    },
    get lastSeq() {
      return events.length;
    },
  };
}

/** Hands an event to every listener; a faulty one stops neither the others nor the emitter. */
export function deliver(listeners: ReadonlySet<EventListener>, event: ThreadEvent): void {
  deliverTo([...listeners], event);
}

/** `deliver` over a snapshot of the listeners (one that comes or goes meanwhile changes another snapshot, not this one). */
function deliverTo(listeners: readonly EventListener[], event: ThreadEvent): void {
  for (const listener of listeners) {
    try {
      listener(event);
    } catch (error) {
      // Rethrown on its own, so the host still sees it.
      queueMicrotask(() => {
        throw error;
      });
    }
  }
}
