import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { ModelError } from '../model';

export interface ErrorContext {
  /** The model the request asked for. */
  model: string;
  /** Where the API was called. */
  baseURL: string;
}

/**
 * An SDK failure as a row a user can act on: what happened, in plain words,
 * and what to do. Aborts stay as they are (the engine reports them as a stop).
 */
export function toModelError(error: unknown, { model, baseURL }: ErrorContext): unknown {
  if (error instanceof APIUserAbortError || error instanceof ModelError) return error;
  if (error instanceof APIConnectionTimeoutError) {
    return new ModelError('api_timeout', `The Anthropic API at ${baseURL} did not answer in time, also after retrying. Try again in a moment.`, true);
  }
  if (error instanceof APIConnectionError) {
    const cause = error.cause instanceof Error ? error.cause.message : error.message;
    return new ModelError(
      'api_unreachable',
      `Could not reach the Anthropic API at ${baseURL} (${cause}). Check the server's network or ANTHROPIC_BASE_URL, then try again.`,
      true,
    );
  }
  if (error instanceof APIError) {
    const detail = apiMessage(error);
    const type = error.type ?? (error.error as { error?: { type?: string } } | undefined)?.error?.type ?? null;
    if (error.status === 401 || type === 'authentication_error') {
      return new ModelError('auth_failed', `Claude did not accept the API key (401${detail}). Set a valid ANTHROPIC_API_KEY on the server and restart it.`, false);
    }
    if (error.status === 403 || type === 'permission_error') {
      return new ModelError('permission_denied', `This API key may not use ${model} (403${detail}).`, false);
    }
    if (error.status === 404 || type === 'not_found_error') {
      return new ModelError('model_not_found', `The Anthropic API does not know the model "${model}" (404${detail}). Choose another model.`, true);
    }
    if (error.status === 429 || type === 'rate_limit_error') {
      return new ModelError('rate_limited', `Claude is rate-limiting this API key (429${detail}) and the retries ran out. Wait a minute, then retry.`, true);
    }
    if (error.status === 529 || type === 'overloaded_error') {
      return new ModelError('overloaded', `Claude is overloaded right now (529${detail}) and the retries ran out. Try again in a minute.`, true);
    }
    if (error.status === 400 || error.status === 413 || type === 'invalid_request_error' || type === 'request_too_large') {
      return new ModelError('bad_request', `Claude refused the request (${error.status ?? 400}${detail}).`, false);
    }
    return new ModelError('api_error', `The Anthropic API failed (${error.status ?? 'stream error'}${detail}). Try again.`, true);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ModelError('model_error', `Claude could not answer: ${message}`, true);
}

function apiMessage(error: APIError): string {
  const body = error.error as { error?: { message?: unknown } } | undefined;
  const text = error.apiMessage ?? (typeof body?.error?.message === 'string' ? body.error.message : null);
  return text ? `: ${text}` : '';
}
