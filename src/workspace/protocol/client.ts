import { loadOnce } from '../../runtime/loadOnce';
import type { AnswerOf, CallInput, JsonRoute, routes } from './routes';
import { readNodesBody } from './nodesBody';
import { pathOf, paths } from './paths';

/** Sends one request and returns the status and parsed JSON of a successful answer (it throws on a failed one). */
export type SendRequest = (method: JsonRoute['method'], path: string, body?: unknown) => Promise<{ status: number; json: unknown }>;

type Routes = typeof routes;
/** The names of the table's JSON routes (every route but the event stream). */
export type JsonRouteName = { [K in keyof Routes]: Routes[K] extends JsonRoute ? K : never }[keyof Routes];

/** Calls a route of the table by name: the input and the answer are typed from it, and the answer is checked against it. */
export type CallRoute = <K extends JsonRouteName>(name: K, input: CallInput<Routes[K]>) => Promise<AnswerOf<Routes[K]>>;

interface AnyInput {
  params?: Record<string, string>;
  body?: unknown;
  query?: Record<string, string | undefined>;
}

/** The answers' schemas, loaded with the first call of any client (a chunk the network lost is asked for again by the next call). */
const routeTable = loadOnce<Routes>(() => import('./routes').then((module) => module.routes), "its code for the server's answers");

/**
 * Answers read by hand, as their route's schema would read them (null: not one, and the schema
 * says why): a node query's, the call a page makes when the user steps into the message box (the
 * slash skills), so that moment loads no schemas.
 */
const READ_BY_HAND: { [K in JsonRouteName]?: (json: unknown) => AnswerOf<Routes[K]> | null } = { query: readNodesBody };

/**
 * A thin typed client of the workspace protocol over `send` (which owns
 * fetch, headers and error bodies). An answer that does not fit its route
 * becomes the error `unreadable` makes. The request goes out from the table's
 * paths (`paths.ts`); the answers' schemas (`routes.ts`, with zod) load with
 * the first call, while its request is on the way, so a page that has not
 * called its server yet does not carry them. A node query's answer is read by
 * hand (`nodesBody.ts`); the schemas load for it only when that reading refuses it.
 * @example
 * const call = createProtocolClient(send, (message, status) => new Error(message));
 * const { lastSeq } = await call('send', { params: { threadId }, body: { text } });
 */
export function createProtocolClient(send: SendRequest, unreadable: (message: string, status: number) => Error): CallRoute {
  async function call(name: JsonRouteName, input: AnyInput): Promise<unknown> {
    const { method, path: template } = paths[name];
    let path: string = pathOf(template, (input.params ?? {}) as never);
    if (input.query) {
      const pairs = Object.entries(input.query).filter((pair): pair is [string, string] => pair[1] !== undefined);
      if (pairs.length) path += `?${pairs.map(([key, value]) => `${key}=${encodeURIComponent(value)}`).join('&')}`;
    }
    // The server's cross-site guard takes a write only as JSON, so a write without a body sends `{}`.
    const body = input.body ?? (method === 'GET' ? undefined : {});
    const byHand = READ_BY_HAND[name];
    const schemas = byHand ? null : routeTable.load();
    // Not left unhandled when the request fails first: that failure is the one thrown.
    schemas?.catch(() => undefined);
    const { status, json } = await send(method, path, body);
    const read = byHand?.(json);
    if (read) return read;
    const route: JsonRoute = (await (schemas ?? routeTable.load()))[name];
    const parsed = route.answer.safeParse(json);
    if (!parsed.success) throw unreadable(`The workspace server's answer to ${method} ${template} is not what the protocol says (${parsed.error.message}).`, status);
    return parsed.data;
  }
  // The one place the table's types meet the untyped request: `call` checks every answer against its route.
  return call as CallRoute;
}
