import type { ThreadEvent } from '../runtime/events';
import { canCheckEvent, checkEvent } from '../runtime/eventChecks';
import { loadEventSchemas } from '../runtime/loadEventSchemas';
import { readErrorBody } from './protocol/errorBody';
import { refusalError, serverAddress, unreachableError } from './remoteErrors';
import { createEventStreamReader } from './protocol/eventStreamReader';
import { pathOf, paths } from './protocol/paths';
import type { DeliveryLedger } from './remoteDelivery';

/** What a thread's event stream needs from its remote workspace. */
export interface FollowOptions {
  /** The server's URL, without a trailing slash. */
  base: string;
  fetch: typeof fetch;
  headers: Record<string, string>;
  ledger: DeliveryLedger;
  /** The remote workspace's options of the same names (`RemoteWorkspaceOptions`). */
  options: {
    retryMs?: number;
    maxRetryMs?: number;
    onConnectionChange?: (threadId: string, state: 'open' | 'reconnecting' | 'failed', detail?: string) => void;
  };
}

/** One thread's event stream, reconnecting with `Last-Event-ID` until stopped; each seq is delivered once. */
export function followThread(stream: FollowOptions, threadId: string, since: number, deliver: (event: ThreadEvent) => void): () => void {
  const { options } = stream;
  let last = since;
  let stopped = false;
  let controller: AbortController | null = null;
  let delay = options.retryMs ?? 500;
  let serverRetry: number | null = null;
  const maxDelay = options.maxRetryMs ?? 5_000;

  const run = async () => {
    while (!stopped) {
      controller = new AbortController();
      const before = last;
      let ended = false;
      try {
        const response = await stream.fetch(`${stream.base}${pathOf(paths.events.path, { threadId })}`, {
          headers: { ...stream.headers, accept: 'text/event-stream', 'last-event-id': String(last) },
          signal: controller.signal,
        });
        if (response.ok && response.body) {
          options.onConnectionChange?.(threadId, 'open');
          delay = serverRetry ?? options.retryMs ?? 500;
          const read: unknown[] = [];
          const parse = createEventStreamReader({
            onRetry: (ms) => (serverRetry = ms),
            onEvent: (message) => {
              if (message.data) read.push(jsonOf(message.data));
            },
          });
          const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
          for (;;) {
            const { value, done } = await reader.read();
            if (done || stopped) break;
            parse(value);
            // The event schemas load with the first event the hand checks do not cover (eventChecks.ts).
            // Should their chunk fail to load, the stream starts again after a wait from the last
            // event delivered: the server sends the rest again, nothing is skipped.
            if (!read.every((raw) => raw === undefined || canCheckEvent(raw)) && !(await loadEventSchemas().then(() => true, () => false))) {
              controller.abort();
              break;
            }
            for (const raw of read.splice(0)) {
              const event = readEvent(raw);
              // Replays the server repeats after a reconnect are dropped here; the fold would ignore them too.
              if (!event || event.seq <= last) continue;
              last = event.seq;
              deliver(event);
            }
          }
          ended = true;
        } else if (response.status === 204 || (response.status === 404 && (await errorCode(response)) === 'unknown_thread')) {
          // A thread nobody has written yet: wait for this client's first write to it (or a while), then look again.
          await stream.ledger.untilKicked(threadId, delay);
          delay = Math.min(delay * 2, maxDelay);
          continue;
        } else if (response.status >= 400 && response.status < 500 && response.status !== 429) {
          // A request the server will never accept (bad id, signed out): retrying cannot help.
          const body = await response.json().catch(() => null);
          options.onConnectionChange?.(threadId, 'failed', refusalError(serverAddress(stream.base), response.status, body, `GET ${paths.events.path}`).message);
          return;
        } else {
          await response.body?.cancel();
        }
      } catch (error) {
        // Network error or server gone: reconnect below. A page on another origin that the server
        // refuses sees only a network error too: asked plainly, that refusal ends the stream.
        if (stopped) return;
        if (!ended) {
          const why = await unreachableError(stream.base, stream.fetch, error);
          if (why.code === 'cross_origin' || why.status >= 400) {
            if (!stopped) options.onConnectionChange?.(threadId, 'failed', why.message);
            return;
          }
        }
      }
      if (stopped) return;
      // The server ended a stream that was delivering (a page of a long backlog): go on at once.
      if (ended && last > before) continue;
      options.onConnectionChange?.(threadId, 'reconnecting');
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, maxDelay);
    }
  };
  void run();
  return () => {
    stopped = true;
    controller?.abort();
    stream.ledger.kick(threadId);
  };
}

/** The `error.code` of a JSON error response (`{ error: { code } }`; '' when there is none); reads the body. */
async function errorCode(response: Response): Promise<string> {
  return readErrorBody(await response.json().catch(() => null))?.code ?? '';
}

/** An event's JSON, or undefined for data that is not JSON (dropped: it has no seq to account for). */
function jsonOf(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
}

/**
 * An event from the stream, validated where it enters the page. One that
 * does not fit the contract but has a seq becomes an error row in its place
 * (the seq stays accounted for); one with no seq cannot be placed and is dropped.
 */
function readEvent(raw: unknown): ThreadEvent | null {
  if (raw === undefined) return null;
  const parsed = checkEvent(raw);
  if (parsed.ok) return parsed.event as ThreadEvent;
  const seq = typeof raw === 'object' && raw !== null && 'seq' in raw ? raw.seq : undefined;
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq <= 0) return null;
  return {
    type: 'turn.error',
    seq,
    ts: Date.now(),
    code: 'malformed_event',
    message: `Skipped an event the chat could not read (${parsed.error}). Nothing else was lost.`,
    recoverable: false,
  };
}
