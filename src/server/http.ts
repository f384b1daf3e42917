import type { Context } from 'hono';
import type { FieldIssue } from '../runtime/events';
import type { DoorError } from '../runtime/doors/door';

const JSON_TYPE: Readonly<Record<string, string>> = Object.freeze({ 'content-type': 'application/json' });

/**
 * A JSON response with its headers as a plain object: what `Response.json` sends, without building
 * a `Headers` for it (the node server writes a plain object's headers as they are).
 */
export function jsonResponse(body: unknown, status = 200, headers?: Record<string, string>): Response {
  return new Response(JSON.stringify(body), { status, headers: headers ? { 'content-type': 'application/json', ...headers } : JSON_TYPE });
}

/** The one error body of every route: `{ error: { code, message, issues? } }`. */
export function errorResponse(status: number, code: string, message: string, issues?: FieldIssue[], headers?: Record<string, string>): Response {
  return jsonResponse({ error: { code, message, ...(issues?.length ? { issues } : {}) } }, status, headers);
}

/** What the AG-UI endpoint says to a request with no principal: the endpoint's own answer, and its answer while its packages are missing. */
export const AG_UI_SIGN_IN = 'Sign in first: this AG-UI endpoint runs your own threads.';

/** 401 with `WWW-Authenticate: Bearer`, in the route's own words. */
export function unauthorizedResponse(message: string): Response {
  return errorResponse(401, 'unauthorized', message, undefined, { 'www-authenticate': 'Bearer' });
}

/** A door's refusal as a JSON error, with `Retry-After` for 429 and `WWW-Authenticate` for 401. */
export function doorErrorResponse(error: DoorError): Response {
  const headers: Record<string, string> = {};
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(error.retryAfterSeconds);
  if (error.status === 401) headers['www-authenticate'] = 'Bearer';
  return errorResponse(error.status, error.code, error.message, error.issues, headers);
}

/** Reads a JSON body; a clear 400 when it is not JSON (the body limit has already been applied). */
export async function readJson(c: Context): Promise<{ ok: true; value: unknown } | { ok: false; response: Response }> {
  const text = await c.req.text();
  if (text.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { ok: false, response: errorResponse(400, 'invalid_json', `The request body is not valid JSON (${detail}).`) };
  }
}

/** A plain JSON object, or null. */
export function asObject(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}
