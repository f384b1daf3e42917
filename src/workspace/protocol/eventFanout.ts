import type { ThreadEvent } from '../../runtime/events';

/**
 * How a thread's events reach its event-stream clients, cheaply when there are
 * thousands: each event is serialised once (its SSE frame made once, the same
 * bytes for every client), what a client was given since its last write goes
 * to it as one write, and a client whose unsent bytes pass the high-water mark
 * has its stream ended after what it has, to resume from the log with
 * `Last-Event-ID`. The producer only queues a reference per client: the writes
 * happen after its task, never inside it, in slices that let it run between
 * them. Browser-safe (no Node modules): the Node writer is in
 * `src/server/nodeEventWriter.ts`.
 */

/** Where a client's bytes go: a web stream's controller or a Node response (`DirectEventWriter`). */
export interface EventSink {
  /** 'waiting' until bytes may be written (a response's head not sent yet), 'closed' once the client is gone. */
  state(): 'waiting' | 'open' | 'closed';
  write(chunk: Uint8Array): void;
  /** Bytes written and not yet taken by the client (or the network). */
  buffered(): number;
  /** Ends the stream after what was written; `dropped`: ended because the client fell behind. */
  close(dropped: boolean): void;
}

/** The limits of one client's stream. */
export interface FanoutLimits {
  /** Unsent bytes beyond which the client's stream is ended (it resumes from the log). */
  highWaterMark: number;
  /** Most events written to a client in one go; more are left to its next stream. */
  maxQueued: number;
}

/** The most bytes written to a client in one go (a page of a backlog), as a multiple of the high-water mark. */
export const PAGE_MARKS = 4;

/**
 * Bytes as the runtime writes them best: Node's `Buffer` where there is one
 * (a socket takes it as it is; a plain `Uint8Array` is wrapped on every
 * write), else a `Uint8Array`. Looked up on `globalThis`: this module stays
 * free of Node imports.
 */
const NodeBuffer = (globalThis as { Buffer?: { from(text: string): Uint8Array; allocUnsafe(size: number): Uint8Array } }).Buffer;
const encoder = new TextEncoder();
const encode: (text: string) => Uint8Array = NodeBuffer ? (text) => NodeBuffer.from(text) : (text) => encoder.encode(text);
const allocate: (size: number) => Uint8Array = NodeBuffer ? (size) => NodeBuffer.allocUnsafe(size) : (size) => new Uint8Array(size);

/** Frames by event: an event handed to every follower of a thread is serialised once. */
const frames = new WeakMap<ThreadEvent, Uint8Array>();
/** The last event framed: a fan-out hands the same event to every follower in a row. */
let lastEvent: ThreadEvent | null = null;
let lastFrame: Uint8Array | null = null;

/** The SSE frame of an event (`id:` its seq, `event:` its type, `data:` its JSON), made once per event object. */
export function frameOf(event: ThreadEvent): Uint8Array {
  if (event === lastEvent) return lastFrame!;
  let frame = frames.get(event);
  if (!frame) {
    frame = encode(`id: ${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    frames.set(event, frame);
  }
  lastEvent = event;
  lastFrame = frame;
  return frame;
}

/** A comment or field line as a frame (`retry:`, keep-alive). */
export const textFrame = (text: string): Uint8Array => encode(text);

/** One client's stream: the frames it has not been written yet, and its sink. */
export class FanoutStream {
  /** Kept from write to write (emptied, not replaced): a client keeping up costs no allocation. */
  private readonly pending: Uint8Array[] = [];
  private pendingBytes = 0;
  /** Events among the pending frames. */
  private events = 0;
  /** Past its limits: nothing more is taken, and the stream ends after its next write. */
  private full = false;
  private queued = false;
  ended = false;
  /** The limits as plain fields: a thread's fan-out calls `push` on every client for every event. */
  private readonly maxEvents: number;
  private readonly maxBytes: number;
  private readonly highWaterMark: number;

  constructor(
    private readonly sink: EventSink,
    limits: FanoutLimits,
    private readonly onEnd: () => void,
  ) {
    this.maxEvents = limits.maxQueued;
    this.maxBytes = limits.highWaterMark * PAGE_MARKS;
    this.highWaterMark = limits.highWaterMark;
  }

  /** Queues a frame for this client's next write; `event`: an event's frame (counted against `maxQueued`), not a comment. */
  push(frame: Uint8Array, event = true): void {
    if (this.ended || this.full) return;
    this.pending.push(frame);
    this.pendingBytes += frame.byteLength;
    if (event) this.events++;
    if (this.events >= this.maxEvents || this.pendingBytes >= this.maxBytes) this.full = true;
    if (!this.queued) {
      this.queued = true;
      schedule(this);
    }
  }

  /** Writes every frame it has as one chunk; false when the sink is not ready yet (try again later). */
  flush(): boolean {
    this.queued = false;
    if (this.ended) return true;
    const state = this.sink.state();
    if (state === 'closed') {
      this.end(false);
      return true;
    }
    if (state === 'waiting') {
      this.queued = true;
      return false;
    }
    // Behind already: what it has not taken stays its to read, and the rest comes from the log.
    if (this.sink.buffered() > this.highWaterMark) {
      this.end(true);
      return true;
    }
    const parts = this.pending;
    this.pendingBytes = 0;
    this.events = 0;
    if (parts.length === 1) this.sink.write(parts[0]!);
    else if (parts.length > 1) this.sink.write(joined.join(parts));
    parts.length = 0;
    if (this.full) this.end(true);
    return true;
  }

  /** Ends the stream after what was written. */
  end(dropped: boolean): void {
    if (this.ended) return;
    this.ended = true;
    this.pending.length = 0;
    this.onEnd();
    this.sink.close(dropped);
  }
}

/** Joined chunks kept for the next clients: at most this many, and this many bytes beside the newest. */
const JOINED_KEPT = 8;
const JOINED_BYTES = 4 * 1_048_576;

/**
 * Frames joined into one chunk, shared: clients given the same frames since
 * their last write (every client of a thread written in the same stretch of a
 * pass) are written the same bytes, joined once, however long (a fan-out that
 * fell behind writes each client hundreds of events at a time: joined per
 * client, that would be a copy of them per client). The last `JOINED_KEPT`
 * joins are kept (within `JOINED_BYTES`), newest first in the search; emptied
 * when the fan-out goes idle, so nothing is held after.
 */
export class JoinCache {
  private readonly lists: Uint8Array[][] = [];
  private readonly chunks: Uint8Array[] = [];
  private bytes = 0;

  join(parts: readonly Uint8Array[]): Uint8Array {
    for (let i = this.lists.length - 1; i >= 0; i--) if (sameParts(this.lists[i]!, parts)) return this.chunks[i]!;
    let size = 0;
    for (const part of parts) size += part.byteLength;
    const chunk = allocate(size);
    let at = 0;
    for (const part of parts) {
      chunk.set(part, at);
      at += part.byteLength;
    }
    while (this.lists.length > 0 && (this.lists.length >= JOINED_KEPT || this.bytes + size > JOINED_BYTES)) {
      this.lists.shift();
      this.bytes -= this.chunks.shift()!.byteLength;
    }
    this.lists.push(parts.slice());
    this.chunks.push(chunk);
    this.bytes += size;
    return chunk;
  }

  clear(): void {
    this.lists.length = 0;
    this.chunks.length = 0;
    this.bytes = 0;
  }
}

function sameParts(a: readonly Uint8Array[], b: readonly Uint8Array[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const joined = new JoinCache();

/**
 * The pass: streams with frames to write, in the order they were queued, the
 * next one at `cursor`. A stream queued while the pass runs (one already
 * written in it, given a new event) goes on its end: each client is written in
 * turn, every event it has by then in one write. A pass runs in slices (at
 * least `SLICE_FIRST` writes, then until `SLICE_MS` have passed), each after
 * the producer's and the other requests' tasks: with a
 * thread followed by thousands the producer is never held for a whole pass,
 * and the clients further on get the events that came meanwhile in the same
 * write (one client's wait is then at most about one pass, not two). A write
 * to a socket costs about the same for one event or ten, so a busy fan-out
 * writes each client less often, with more in each write.
 */
let due: FanoutStream[] = [];
let cursor = 0;
let scheduled = false;
/** Streams whose response head is not out yet (the adapter still busy): looked at again shortly. */
let waiting: FanoutStream[] = [];
let waitingTimer = false;
const SLICE_MS = 2;
/** Writes in a slice before the clock is looked at (a pass to a few hundred clients is one task), and between two looks. */
const SLICE_FIRST = 256;
const CLOCK_EVERY = 16;
/** After the task: `setImmediate` in Node (after this turn's timers and I/O callbacks), a timer elsewhere. */
const later: (run: () => void) => void = typeof setImmediate === 'function' ? (run) => void setImmediate(run) : (run) => void setTimeout(run, 0);
const clock: () => number = typeof performance === 'object' ? () => performance.now() : () => Date.now();

function schedule(stream: FanoutStream): void {
  due.push(stream);
  if (scheduled) return;
  scheduled = true;
  later(flushDue);
}

function flushDue(): void {
  scheduled = false;
  const until = clock() + SLICE_MS;
  let count = 0;
  try {
    while (cursor < due.length) {
      const stream = due[cursor++]!;
      if (!stream.flush()) waiting.push(stream);
      if (++count >= SLICE_FIRST && count % CLOCK_EVERY === 0 && clock() >= until) break;
    }
  } finally {
    // Even if a sink threw: the streams after it stay due, written in the next slice.
    next();
  }
}

/** The next slice, if the pass goes on; else the pass is over. */
function next(): void {
  if (cursor < due.length) {
    // The written part of the pass let go, now and then (not on every slice: that would copy the rest each time).
    if (cursor >= 1_024 && cursor * 2 >= due.length) {
      due = due.slice(cursor);
      cursor = 0;
    }
    scheduled = true;
    later(flushDue);
  } else {
    due = [];
    cursor = 0;
    joined.clear();
  }
  if (waiting.length > 0 && !waitingTimer) {
    waitingTimer = true;
    // Without spinning: a millisecond later.
    setTimeout(retryWaiting, 1);
  }
}

function retryWaiting(): void {
  waitingTimer = false;
  const streams = waiting;
  waiting = [];
  for (const stream of streams) due.push(stream);
  // Written now, in this timer's task, unless a slice is already on its way.
  if (!scheduled) flushDue();
}
