import type { AnswerOf, CallInput, JsonRoute } from './routes';
import { pathOf } from './routes';

/** Sends one request and returns the status and parsed JSON of a successful answer (it throws on a failed one). */
export type SendRequest = (method: JsonRoute['method'], path: string, body?: unknown) => Promise<{ status: number; json: unknown }>;

/** Calls a route of the table: the input and the answer are typed from it, and the answer is checked against it. */
export type CallRoute = <R extends JsonRoute>(route: R, input: CallInput<R>) => Promise<AnswerOf<R>>;

interface AnyInput {
  params?: Record<string, string>;
  body?: unknown;
  query?: Record<string, string | undefined>;
}

/**
 * A thin typed client of the workspace protocol over `send` (which owns
 * fetch, headers and error bodies). An answer that does not fit its route
 * becomes the error `unreadable` makes.
 * @example
 * const call = createProtocolClient(send, (message, status) => new Error(message));
 * const { lastSeq } = await call(routes.send, { params: { threadId }, body: { text } });
 */
export function createProtocolClient(send: SendRequest, unreadable: (message: string, status: number) => Error): CallRoute {
  async function call(route: JsonRoute, input: AnyInput): Promise<unknown> {
    let path: string = pathOf(route.path, input.params ?? {});
    if (input.query) {
      const pairs = Object.entries(input.query).filter((pair): pair is [string, string] => pair[1] !== undefined);
      if (pairs.length) path += `?${pairs.map(([key, value]) => `${key}=${encodeURIComponent(value)}`).join('&')}`;
    }
    // The server's cross-site guard takes a write only as JSON, so a write without a body sends `{}`.
    const body = input.body ?? (route.method === 'GET' ? undefined : {});
    const { status, json } = await send(route.method, path, body);
    const parsed = route.answer.safeParse(json);
    if (!parsed.success) throw unreadable(`The workspace server's answer to ${route.method} ${route.path} is not what the protocol says (${parsed.error.message}).`, status);
    return parsed.data;
  }
  // The one place the table's types meet the untyped request: `call` checks every answer against its route.
  return call as CallRoute;
}
