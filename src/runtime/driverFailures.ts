import type { Usage } from './events';

/**
 * What the model drivers (runtime/anthropic, runtime/openai) share about a failed try of a model
 * step: its record, the context of the error a user reads, the stream cut mid-reply, the words for
 * the retries made, a socket lost mid-body, and the wait a server asked for. Each driver maps its
 * own SDK's errors onto these (its `errors.ts`). No SDK here.
 */

/** A failed try of one model step, as the driver saw it. */
export interface Failure {
  /** Short words for what happened, for the message: `529`, `overloaded mid-reply`, `no connection`. */
  label: string;
  /** True when trying again may work (the server's `x-should-retry` wins). */
  retryable: boolean;
  /** How long the server asked to wait (`retry-after-ms`, `retry-after`). */
  retryAfterMs?: number;
}

export interface ErrorContext {
  /** The model the request asked for. */
  model: string;
  /** Where the model server was called. */
  baseURL: string;
  /** Every failed try of this step, oldest first (the error itself is the last). */
  failures?: readonly Failure[];
  /** The retries the driver allows. */
  maxRetries?: number;
  /** Set when the server asked to wait longer than the driver waits. */
  waitMs?: number;
}

/** A stream that ended before its end marker (`message_stop`, `data: [DONE]`): the connection dropped mid-reply. */
export class StreamCut extends Error {
  override name = 'StreamCut';
  constructor() {
    super('The connection closed before the reply ended.');
  }
}

/**
 * "; tried 3 times (529, overloaded mid-reply, 529)" and the like: what the retries did. `who` is
 * how the message names the model server ("the API", "the server").
 */
export function triesText({ failures = [], maxRetries, waitMs }: ErrorContext, who: string): string {
  if (waitMs !== undefined) return `; ${who} asked to wait ${Math.ceil(waitMs / 1000)} s, longer than this server waits, so it was not retried`;
  const last = failures[failures.length - 1];
  if (failures.length > 1) return `; tried ${failures.length} times (${failures.map((f) => f.label).join(', ')})`;
  if (last?.retryable && maxRetries === 0) return '; not retried (retries are off)';
  return '';
}

/**
 * A socket that broke while the body streamed (undici says `terminated`), which an SDK passes on
 * as it is; `isApiError` tells the SDK's own API errors apart (never one of these).
 */
export function isConnectionLost(error: unknown, isApiError: (error: unknown) => boolean): boolean {
  if (!(error instanceof Error) || isApiError(error)) return false;
  const cause = (error as { cause?: { code?: unknown } }).cause;
  return error.message === 'terminated' || (typeof cause?.code === 'string' && /^(ECONNRESET|EPIPE|UND_ERR_SOCKET)$/.test(cause.code));
}

/** `retry-after-ms`, else `retry-after` (seconds or an HTTP date), in ms. */
export function retryAfter(headers: Headers | undefined): number | undefined {
  const ms = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const raw = headers?.get('retry-after');
  if (!raw) return undefined;
  const seconds = Number.parseFloat(raw);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** The wait before retry `n` (0-based): the server's `retry-after`, else exponential backoff (at most 8 s) with jitter. */
export function backoff(failure: Failure, n: number, baseMs: number): number {
  if (failure.retryAfterMs !== undefined) return failure.retryAfterMs;
  return Math.min(baseMs * 2 ** n, 8_000) * (1 - Math.random() * 0.25);
}

/** Waits `ms`, or less when `signal` aborts (then it resolves at once; it never rejects). */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Adds one response's token counts to a step's (the cache counts as 0 where a server leaves them out). */
export function addUsage(into: Usage, from: Usage): void {
  into.input_tokens += from.input_tokens;
  into.output_tokens += from.output_tokens;
  into.cache_creation_input_tokens = (into.cache_creation_input_tokens ?? 0) + (from.cache_creation_input_tokens ?? 0);
  into.cache_read_input_tokens = (into.cache_read_input_tokens ?? 0) + (from.cache_read_input_tokens ?? 0);
}
