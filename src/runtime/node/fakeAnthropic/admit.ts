import { estimateTokens, promptBlocks } from '../fakeAnthropicCache';
import type { ApiErrorAnswer } from './errors';
import type { RecordedRequest } from './requests';
import type { ThinkingSigner } from './thinking';
import { validateMessagesRequest } from './validate';

/**
 * Whether the API would take a request at all, in its order: the key (`x-api-key` or
 * `authorization: Bearer`), the route, the `anthropic-version` header, the size, the JSON body,
 * the body's rules (`validateMessagesRequest`), the context window. The error it would answer,
 * or null.
 */

export interface AdmitOptions {
  apiKey: string;
  maxBytes: number;
  contextWindow: number;
  prefill: boolean;
  paused: ReadonlySet<string>;
  /** The fake's signatures on thinking blocks, checked when they come back. */
  thinking: ThinkingSigner;
}

/** Sets `record.authorized`; returns the API's error for the request, or null when it is answered. */
export function admit(record: RecordedRequest, options: AdmitOptions): ApiErrorAnswer | null {
  const bearer = record.headers.authorization?.match(/^Bearer (.+)$/)?.[1];
  record.authorized = record.headers['x-api-key'] === options.apiKey || bearer === options.apiKey;
  if (!record.authorized) return { status: 401, type: 'authentication_error', message: 'invalid x-api-key' };
  if (record.method !== 'POST' || !record.path.startsWith('/v1/messages')) {
    return { status: 404, type: 'not_found_error', message: `No route ${record.method} ${record.path}.` };
  }
  if (!record.headers['anthropic-version']) return { status: 400, type: 'invalid_request_error', message: 'anthropic-version: header is required' };
  if (record.bytes > options.maxBytes) return { status: 413, type: 'request_too_large', message: 'Request exceeds the maximum allowed number of bytes.' };
  if (!record.body || typeof record.body !== 'object' || Array.isArray(record.body)) {
    return { status: 400, type: 'invalid_request_error', message: 'The request body is not valid JSON.' };
  }
  const invalid = validateMessagesRequest(record.body, { prefill: options.prefill, paused: options.paused, thinking: options.thinking });
  if (invalid) return invalid;
  const total = promptBlocks(record.body).blocks.reduce((n, b) => n + estimateTokens(b), 0);
  if (total > options.contextWindow) {
    return { status: 400, type: 'invalid_request_error', message: `prompt is too long: ${total} tokens > ${options.contextWindow} maximum` };
  }
  return null;
}
