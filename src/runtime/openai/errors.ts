import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { isConnectionLost, retryAfter, StreamCut, triesText, type ErrorContext, type Failure } from '../driverFailures';
import { ModelError } from '../model';

export { StreamCut, type ErrorContext, type Failure } from '../driverFailures';

/** The SDK's own API errors (never a lost connection). */
const isApiError = (error: unknown): boolean => error instanceof APIError;

/** What one failure was and whether to try again; `null` for an abort or an error that is not the server's. */
export function failureOf(error: unknown): Failure | null {
  if (error instanceof APIUserAbortError) return null;
  if (error instanceof StreamCut) return { label: 'connection closed mid-reply', retryable: true };
  if (error instanceof APIConnectionTimeoutError) return { label: 'no answer in time', retryable: true };
  if (error instanceof APIConnectionError) return { label: 'no connection', retryable: true };
  if (isConnectionLost(error, isApiError)) return { label: 'connection lost mid-reply', retryable: true };
  if (!(error instanceof APIError)) return null;
  if (error.status === undefined) {
    // An error payload inside a 200 stream: no HTTP status, no retry headers. A server error there may pass; a bad request will not.
    const kind = error.type ?? error.code ?? 'an error';
    return { label: `${kind} mid-reply`, retryable: error.type === 'server_error' || error.code === 'rate_limit_exceeded' };
  }
  const header = error.headers?.get('x-should-retry');
  const byStatus = error.status === 408 || error.status === 409 || error.status === 429 || error.status >= 500;
  const quota = error.code === 'insufficient_quota';
  const retryable = !quota && (header === 'true' ? true : header === 'false' ? false : byStatus);
  const wait = retryAfter(error.headers);
  return { label: String(error.status), retryable, ...(wait !== undefined ? { retryAfterMs: wait } : {}) };
}

/**
 * The numbers of a context-length refusal ("maximum context length is N
 * tokens. However, your messages resulted in M tokens"; llama.cpp: "the
 * request exceeds the available context size"), else `null`. `tokens` and
 * `maximum` are NaN when the server does not say them.
 */
export function contextTooLong(error: unknown): { tokens: number; maximum: number } | null {
  if (!(error instanceof APIError) || (error.status !== 400 && error.status !== 413)) return null;
  const text = apiMessage(error);
  const openai = /maximum context length is (\d+) tokens[^]*?resulted in (\d+) tokens/i.exec(text);
  if (openai) return { tokens: Number(openai[2]), maximum: Number(openai[1]) };
  if (error.code === 'context_length_exceeded' || error.type === 'exceed_context_size_error' || /context (size|length|window)/i.test(text)) {
    const numbers = /(\d+) tokens[^]*?(\d+)/.exec(text);
    return numbers ? { tokens: Math.max(Number(numbers[1]), Number(numbers[2])), maximum: Math.min(Number(numbers[1]), Number(numbers[2])) } : { tokens: NaN, maximum: NaN };
  }
  return null;
}

/**
 * An SDK failure as a row a user can act on: what happened, in plain words
 * (the HTTP status or the error in the stream, and the tries made), and what
 * to do. Aborts stay as they are (the engine reports them as a stop).
 */
export function toModelError(error: unknown, context: ErrorContext): unknown {
  const { model, baseURL } = context;
  if (error instanceof APIUserAbortError || error instanceof ModelError) return error;
  const tries = triesText(context, 'the server');
  const where = `the model server at ${baseURL}`;
  if (error instanceof StreamCut) return new ModelError('api_error', `The connection to ${where} closed before the reply ended${tries}. Try again.`, true);
  if (isConnectionLost(error, isApiError)) return new ModelError('api_error', `The connection to ${where} was lost before the reply ended${tries}. Try again.`, true);
  if (error instanceof APIConnectionTimeoutError) return new ModelError('api_timeout', `${capital(where)} did not answer in time${tries}. Try again in a moment.`, true);
  if (error instanceof APIConnectionError) {
    const cause = error.cause instanceof Error ? (error.cause.cause instanceof Error ? error.cause.cause.message : error.cause.message) : error.message;
    return new ModelError('api_unreachable', `Could not reach ${where} (${cause})${tries}. Check that it is running and OPENAI_BASE_URL, then try again.`, true);
  }
  if (error instanceof APIError) {
    const text = apiMessage(error);
    const detail = text ? `: ${text}` : '';
    const midReply = error.status === undefined;
    if (error.status === 401 || error.code === 'invalid_api_key') {
      return new ModelError('auth_failed', `${capital(where)} did not accept the API key (401${detail}). Set a valid OPENAI_API_KEY on the server and restart it.`, false);
    }
    if (error.status === 403) return new ModelError('permission_denied', `This API key may not use ${model} (403${detail}).`, false);
    if (error.status === 404 || error.code === 'model_not_found') {
      return new ModelError('model_not_found', `${capital(where)} does not know the model "${model}" (404${detail}). Choose another model, or set OPENAI_MODEL to one it serves.`, true);
    }
    if (error.code === 'insufficient_quota') {
      return new ModelError('spend_limit', `This account has run out of quota (${error.status ?? 429}${detail}); retrying cannot help until it is topped up.`, false);
    }
    if (error.status === 429 || error.code === 'rate_limit_exceeded') {
      const what = midReply ? `stopped mid-reply${detail}` : `429${detail}`;
      return new ModelError('rate_limited', `${capital(where)} is rate-limiting this API key (${what})${tries}. Wait a minute, then retry.`, true);
    }
    if (contextTooLong(error)) {
      return new ModelError(
        'context_window_exceeded',
        `The conversation does not fit ${model}'s context window (${error.status}${detail}), even with the older messages left out. Send a shorter message or start a new thread.`,
        true,
      );
    }
    if (error.status === 400 || error.status === 413 || error.status === 422) {
      return new ModelError('bad_request', `${capital(where)} refused the request (${error.status}${detail}).`, false);
    }
    if (error.status !== undefined && error.status >= 500) {
      return new ModelError('overloaded', `${capital(where)} failed (${error.status}${detail})${tries}. Try again in a minute.`, true);
    }
    const what = midReply ? `failed mid-reply (${error.type ?? error.code ?? 'an error in the stream'}${detail})` : `failed (${error.status}${detail})`;
    return new ModelError('api_error', `${capital(where)} ${what}${tries}. Try again.`, true);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ModelError('model_error', `${model} could not answer: ${message}`, true);
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The server's own words: `{ error: { message } }` (the SDK keeps the inner object as `error`). */
function apiMessage(error: APIError): string {
  const body = error.error as { message?: unknown; error?: { message?: unknown } } | undefined;
  const message = typeof body?.message === 'string' ? body.message : typeof body?.error?.message === 'string' ? body.error.message : '';
  return message.trim();
}

