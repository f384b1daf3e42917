import type { ServerResponse } from 'node:http';
import type { RecordedRequest } from './requests';

/** HTTP errors as the API answers them: its error body, `request-id`, and the retry headers. */

/** An API error as the fake answers it. */
export interface ApiErrorAnswer {
  status: number;
  type: string;
  message: string;
}

/** The retry headers a scripted error sets (`retry-after-ms`, `retry-after`, `x-should-retry`). */
export interface RetryHeaders {
  retryAfterMs?: number;
  retryAfter?: number;
  shouldRetry?: boolean;
}

/** Answers `error` with the API's error body, and records it on `record`. */
export function sendError(res: ServerResponse, record: RecordedRequest, error: ApiErrorAnswer, headers: RetryHeaders = {}): void {
  record.status = error.status;
  record.error = { type: error.type, message: error.message };
  const requestId = `req_fake_error_${Math.random().toString(36).slice(2, 10)}`;
  const out: Record<string, string> = {
    'content-type': 'application/json',
    'request-id': requestId,
    'x-should-retry': String(headers.shouldRetry ?? retryable(error.status)),
  };
  if (headers.retryAfterMs !== undefined) out['retry-after-ms'] = String(headers.retryAfterMs);
  if (headers.retryAfter !== undefined) out['retry-after'] = String(headers.retryAfter);
  res.writeHead(error.status, out);
  res.end(JSON.stringify({ type: 'error', error: { type: error.type, message: error.message }, request_id: requestId }));
}

function retryable(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** The API's error type for an HTTP status. */
export function errorType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 413) return 'request_too_large';
  if (status === 429) return 'rate_limit_error';
  if (status === 529) return 'overloaded_error';
  if (status === 504) return 'timeout_error';
  if (status >= 500) return 'api_error';
  return 'invalid_request_error';
}
