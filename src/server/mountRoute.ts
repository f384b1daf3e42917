import type { Context, Env, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type * as z from 'zod/mini';
import { toFieldIssues } from '../runtime/events';
import { paramNames, THREAD_ID, THREAD_ID_RULE, type JsonRoute, type ParamsOf, type StreamRoute } from '../workspace/protocol';
import { errorResponse, readJson } from './http';

/** What a mounted route's handler gets: the path parameters, the validated body and query. */
export interface RouteInput<R extends JsonRoute> {
  params: ParamsOf<R['path']>;
  body: R extends { body: infer B extends z.ZodMiniType } ? z.output<B> : undefined;
  query: R extends { query: infer Q extends z.ZodMiniType } ? z.output<Q> : undefined;
}

/** Answers with what the route's table entry says it answers. */
export type Reply<R extends JsonRoute> = (answer: z.input<R['answer']>, status?: ContentfulStatusCode, headers?: Record<string, string>) => Response;

type Parsed<T> = { ok: true; value: T } | { ok: false; response: Response };

/** A 400 naming each field that does not fit. */
function invalid(error: z.core.$ZodError): Response {
  const issues = toFieldIssues(error.issues);
  return errorResponse(400, 'invalid_request', issues.map((i) => `${i.path}: ${i.message}`).join('; '), issues);
}

/** A request's JSON body, validated; a 400 when it is not JSON or does not fit. */
export async function readBody<T>(c: Context, schema: z.ZodMiniType<T>): Promise<Parsed<T>> {
  const raw = await readJson(c);
  if (!raw.ok) return raw;
  const parsed = schema.safeParse(raw.value);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, response: invalid(parsed.error) };
}

/** The route's path parameters; a `threadId` that breaks the thread-id rule is a 400 saying what a valid one looks like. */
export function readParams(c: Context, route: JsonRoute | StreamRoute): Parsed<Record<string, string>> {
  const params: Record<string, string> = {};
  for (const name of paramNames(route.path)) {
    const value = c.req.param(name) ?? '';
    if (name === 'threadId' && !THREAD_ID.test(value)) return { ok: false, response: errorResponse(400, 'invalid_thread_id', THREAD_ID_RULE) };
    params[name] = value;
  }
  return { ok: true, value: params };
}

/**
 * Mounts one route of the protocol's table on `app`: its method and path,
 * the path parameters, body and query checked in that order (each failure a
 * 400 saying why), then `handle` with typed input and a reply typed by the
 * route's answer. Sign-in is the app's middleware, as before.
 * @example
 * mountRoute(app, routes.send, async (c, { params, body }, reply) => reply({ lastSeq: await send(params.threadId, body.text) }));
 */
export function mountRoute<E extends Env, R extends JsonRoute>(
  app: Hono<E>,
  route: R,
  handle: (c: Context<E>, input: RouteInput<R>, reply: Reply<R>) => Response | Promise<Response>,
): void {
  app.on(route.method, route.path, async (c) => {
    const params = readParams(c, route);
    if (!params.ok) return params.response;
    let body: unknown;
    if (route.body) {
      const parsed = await readBody(c, route.body);
      if (!parsed.ok) return parsed.response;
      body = parsed.value;
    }
    let query: unknown;
    if (route.query) {
      const parsed = route.query.safeParse(c.req.query());
      if (!parsed.success) return invalid(parsed.error);
      query = parsed.data;
    }
    const reply: Reply<R> = (answer, status = 200, headers = {}) => c.json(answer, status, headers);
    // The table's schemas checked these above; the types follow the route.
    return handle(c, { params: params.value, body, query } as RouteInput<R>, reply);
  });
}
