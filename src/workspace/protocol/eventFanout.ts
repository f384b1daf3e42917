import type { ThreadEvent } from '../../runtime/events';

/**
 * How a thread's events reach its event-stream clients, cheaply when there are
 * thousands: each event is serialised once (its SSE frame made once, the same
 * bytes for every client), the frames of one tick go to a client as one write,
 * and a client whose unsent bytes pass the high-water mark has its stream ended
 * after what it has, to resume from the log with `Last-Event-ID`. The producer
 * only queues a reference per client: the writes happen after its task, never
 * inside it. Browser-safe (no Node modules): the Node writer is in
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
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  /** Events among the pending frames. */
  private events = 0;
  /** Past its limits this tick: nothing more is taken, and the stream ends after this flush. */
  private full = false;
  private queued = false;
  ended = false;

  constructor(
    private readonly sink: EventSink,
    private readonly limits: FanoutLimits,
    private readonly onEnd: () => void,
  ) {}

  /** Queues a frame for this tick's write; `event`: an event's frame (counted against `maxQueued`), not a comment. */
  push(frame: Uint8Array, event = true): void {
    if (this.ended || this.full) return;
    this.pending.push(frame);
    this.pendingBytes += frame.byteLength;
    if (event) this.events++;
    if (this.events >= this.limits.maxQueued || this.pendingBytes >= this.limits.highWaterMark * PAGE_MARKS) this.full = true;
    if (!this.queued) {
      this.queued = true;
      schedule(this);
    }
  }

  /** Writes this tick's frames as one chunk; false when the sink is not ready yet (try again later). */
  flush(joined: JoinCache): boolean {
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
    if (this.sink.buffered() > this.limits.highWaterMark) {
      this.end(true);
      return true;
    }
    const parts = this.pending;
    this.pendingBytes = 0;
    this.events = 0;
    if (parts.length === 1) {
      // One frame (a client keeping up): the array is kept for the next tick.
      this.sink.write(parts[0]!);
      parts.length = 0;
    } else if (parts.length > 1) {
      // The join cache may keep this list to compare the next client's with.
      this.pending = [];
      this.sink.write(joined.join(parts));
    }
    if (this.full) this.end(true);
    return true;
  }

  /** Ends the stream after what was written. */
  end(dropped: boolean): void {
    if (this.ended) return;
    this.ended = true;
    this.pending = [];
    this.onEnd();
    this.sink.close(dropped);
  }
}

/**
 * The frames of one tick joined into one chunk, shared: clients that got the
 * same frames this tick (every live follower of a thread) are written the same
 * bytes, joined once.
 */
export class JoinCache {
  private readonly byFirst = new Map<Uint8Array, { parts: Uint8Array[]; chunk: Uint8Array }>();

  join(parts: Uint8Array[]): Uint8Array {
    const hit = this.byFirst.get(parts[0]!);
    if (hit && hit.parts.length === parts.length && hit.parts.every((part, i) => part === parts[i])) return hit.chunk;
    let size = 0;
    for (const part of parts) size += part.byteLength;
    const chunk = allocate(size);
    let at = 0;
    for (const part of parts) {
      chunk.set(part, at);
      at += part.byteLength;
    }
    if (!hit) this.byFirst.set(parts[0]!, { parts, chunk });
    return chunk;
  }
}

/** Streams with frames to write, flushed together once the current task and its I/O are done. */
let due: FanoutStream[] = [];
let scheduled = false;
/** After the task: `setImmediate` in Node (after this turn's I/O callbacks), a timer elsewhere. */
const later: (run: () => void) => void = typeof setImmediate === 'function' ? (run) => void setImmediate(run) : (run) => void setTimeout(run, 0);

/**
 * A flush that wrote to this many clients or more (one thread followed by
 * thousands) is followed by a pause as long as it took, up to `MAX_PAUSE_MS`:
 * the fan-out then takes about half of the process's time at most, the
 * producer and the other requests the rest, and what comes meanwhile reaches
 * each client as one chunk (a write to a socket costs the same for one event
 * or ten). Smaller fan-outs flush right after the task, as before.
 */
const PAUSE_FROM_CLIENTS = 1_000;
const MAX_PAUSE_MS = 50;
/** When the next flush may run (ms, `clock()`), after a long one. */
let pausedUntil = 0;
const clock: () => number = typeof performance === 'object' ? () => performance.now() : () => Date.now();
/**
 * What a flush took, in ms: the process's CPU time where there is one (Node), so a flush stretched by
 * other processes on the machine is not followed by as long a pause; else the wall clock.
 */
const cpuUsage = (globalThis as { process?: { cpuUsage?: () => { user: number; system: number } } }).process?.cpuUsage;
const cost: () => number = cpuUsage
  ? () => {
      const used = cpuUsage();
      return (used.user + used.system) / 1_000;
    }
  : clock;

function schedule(stream: FanoutStream): void {
  due.push(stream);
  if (scheduled) return;
  scheduled = true;
  const pause = pausedUntil - clock();
  if (pause > 0) setTimeout(flushDue, pause);
  else later(flushDue);
}

function flushDue(): void {
  scheduled = false;
  const streams = due;
  due = [];
  const joined = new JoinCache();
  let waiting = false;
  const timed = streams.length >= PAUSE_FROM_CLIENTS;
  const start = timed ? cost() : 0;
  for (const stream of streams) {
    if (stream.flush(joined)) continue;
    waiting = true;
    due.push(stream);
  }
  if (timed) pausedUntil = clock() + Math.min(MAX_PAUSE_MS, cost() - start);
  // A response whose head is not out yet (its adapter still busy): look again shortly, without spinning.
  if (waiting && !scheduled) {
    scheduled = true;
    setTimeout(flushDue, 1);
  }
}
