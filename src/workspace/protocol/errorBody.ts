/**
 * The one error body of every route, `{ error: { code?, message? } }`, read
 * by hand: what `ErrorAnswer` (`answers.ts`) accepts and returns, without zod,
 * so a page reads a refusal before it has loaded the protocol's schemas
 * (`errorBody.test.ts` holds the two to the same answers).
 */
export interface ErrorBody {
  code?: string;
  message?: string;
}

/** The `error` of a JSON error body as `ErrorAnswer` parses it, or null for a body that is not one. */
export function readErrorBody(body: unknown): ErrorBody | null {
  if (!isObject(body) || !isObject(body.error)) return null;
  const { code, message } = body.error;
  if ((code !== undefined && typeof code !== 'string') || (message !== undefined && typeof message !== 'string')) return null;
  const error: ErrorBody = {};
  if (code !== undefined) error.code = code;
  if (message !== undefined) error.message = message;
  return error;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
