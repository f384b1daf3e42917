import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { isConnectionLost, retryAfter, StreamCut, triesText, type ErrorContext, type Failure } from '../driverFailures';
import { ModelError } from '../model';

export { StreamCut, type ErrorContext, type Failure } from '../driverFailures';

/** The SDK's own API errors (never a lost connection). */
const isApiError = (error: unknown): boolean => error instanceof APIError;

const RETRY_STREAM_TYPES = new Set(['overloaded_error', 'api_error', 'rate_limit_error', 'timeout_error']);

/** What one failure was and whether to try again; `null` for an abort or an error that is not the API's. */
export function failureOf(error: unknown): Failure | null {
  if (error instanceof APIUserAbortError) return null;
  if (error instanceof StreamCut) return { label: 'connection closed mid-reply', retryable: true };
  if (error instanceof APIConnectionTimeoutError) return { label: 'no answer in time', retryable: true };
  if (error instanceof APIConnectionError) return { label: 'no connection', retryable: true };
  if (isConnectionLost(error, isApiError)) return { label: 'connection lost mid-reply', retryable: true };
  if (!(error instanceof APIError)) return null;
  const type = typeOf(error);
  if (error.status === undefined) {
    // An `error` event inside a 200 stream: no HTTP status, no retry headers.
    return { label: `${type === 'overloaded_error' ? 'overloaded' : (type ?? 'an error')} mid-reply`, retryable: type !== null && RETRY_STREAM_TYPES.has(type) };
  }
  const header = error.headers?.get('x-should-retry');
  const byStatus = error.status === 408 || error.status === 409 || error.status === 429 || error.status >= 500;
  const spendLimit = error.errorCode === 'enforced_spend_limit_reached';
  const retryable = !spendLimit && (header === 'true' ? true : header === 'false' ? false : byStatus);
  const wait = retryAfter(error.headers);
  return { label: String(error.status), retryable, ...(wait !== undefined ? { retryAfterMs: wait } : {}) };
}

/** The numbers of a 400 "prompt is too long: N tokens > M maximum", else `null`. */
export function promptTooLong(error: unknown): { tokens: number; maximum: number } | null {
  if (!(error instanceof APIError) || error.status !== 400) return null;
  const match = /prompt is too long: (\d+) tokens > (\d+) maximum/.exec(apiMessage(error));
  return match ? { tokens: Number(match[1]), maximum: Number(match[2]) } : null;
}

/**
 * An SDK failure as a row a user can act on: what happened, in plain words
 * (the HTTP status or the error in the stream, and the tries made), and what
 * to do. Aborts stay as they are (the engine reports them as a stop).
 */
export function toModelError(error: unknown, context: ErrorContext): unknown {
  const { model, baseURL } = context;
  if (error instanceof APIUserAbortError || error instanceof ModelError) return error;
  const tries = triesText(context, 'the API');
  if (error instanceof StreamCut) {
    return new ModelError('api_error', `The connection to the Anthropic API at ${baseURL} closed before the reply ended${tries}. Try again.`, true);
  }
  if (isConnectionLost(error, isApiError)) {
    return new ModelError('api_error', `The connection to the Anthropic API at ${baseURL} was lost before the reply ended${tries}. Try again.`, true);
  }
  if (error instanceof APIConnectionTimeoutError) {
    return new ModelError('api_timeout', `The Anthropic API at ${baseURL} did not answer in time${tries}. Try again in a moment.`, true);
  }
  if (error instanceof APIConnectionError) {
    const cause = error.cause instanceof Error ? error.cause.message : error.message;
    return new ModelError(
      'api_unreachable',
      `Could not reach the Anthropic API at ${baseURL} (${cause})${tries}. Check the server's network or ANTHROPIC_BASE_URL, then try again.`,
      true,
    );
  }
  if (error instanceof APIError) {
    const text = apiMessage(error);
    const detail = text ? `: ${text}` : '';
    const type = typeOf(error);
    const midReply = error.status === undefined;
    if (error.status === 401 || type === 'authentication_error') {
      return new ModelError('auth_failed', `Claude did not accept the API key (401${detail}). Set a valid ANTHROPIC_API_KEY on the server and restart it.`, false);
    }
    if (error.status === 403 || type === 'permission_error') {
      return new ModelError('permission_denied', `This API key may not use ${model} (403${detail}).`, false);
    }
    if (error.status === 404 || type === 'not_found_error') {
      return new ModelError('model_not_found', `The Anthropic API does not know the model "${model}" (404${detail}). Choose another model.`, true);
    }
    if (error.errorCode === 'enforced_spend_limit_reached') {
      return new ModelError('spend_limit', `This organisation reached its spend limit (${error.status ?? 429}${detail}); retrying cannot help until the limit is raised or resets.`, false);
    }
    if (error.status === 429 || type === 'rate_limit_error') {
      const what = midReply ? `stopped mid-reply with rate_limit_error${detail}` : `429${detail}`;
      return new ModelError('rate_limited', `Claude is rate-limiting this API key (${what})${tries}. Wait a minute, then retry.`, true);
    }
    if (error.status === 529 || type === 'overloaded_error') {
      const what = midReply ? `Claude was overloaded mid-reply (an overloaded_error in the stream${detail})` : `Claude is overloaded right now (529${detail})`;
      return new ModelError('overloaded', `${what}${tries}. Try again in a minute.`, true);
    }
    if (promptTooLong(error)) {
      return new ModelError(
        'context_window_exceeded',
        `The conversation does not fit Claude's context window (400${detail}), even with the older messages left out. Send a shorter message or start a new thread.`,
        true,
      );
    }
    if (error.status === 400 || error.status === 413 || type === 'invalid_request_error' || type === 'request_too_large') {
      return new ModelError('bad_request', `Claude refused the request (${error.status ?? 400}${detail}).`, false);
    }
    const what = midReply ? `failed mid-reply (${type ?? 'an error in the stream'}${detail})` : `failed (${error.status}${detail})`;
    return new ModelError('api_error', `The Anthropic API ${what}${tries}. Try again.`, true);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ModelError('model_error', `Claude could not answer: ${message}`, true);
}

function typeOf(error: APIError): string | null {
  return error.type ?? (error.error as { error?: { type?: string } } | undefined)?.error?.type ?? null;
}

function apiMessage(error: APIError): string {
  const body = error.error as { error?: { message?: unknown } } | undefined;
  return error.apiMessage ?? (typeof body?.error?.message === 'string' ? body.error.message : '');
}

