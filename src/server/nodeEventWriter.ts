import { ServerResponse } from 'node:http';
import type { DirectEventWriter } from '../workspace/protocol/eventStreamWriter';

/**
 * The Node response behind a request served by `@hono/node-server` (Hono's
 * `c.env.outgoing`) as the event stream's direct writer: a thread's frames are
 * written to the socket with one `write` per client per tick, no web stream in
 * between. Undefined when the request did not come through a Node
 * `http.Server` (`app.fetch` in tests, another runtime, HTTP/2): the stream
 * then goes through the web body.
 */
export function nodeEventWriter(env: unknown): DirectEventWriter | undefined {
  const outgoing = typeof env === 'object' && env !== null && 'outgoing' in env ? env.outgoing : undefined;
  if (!(outgoing instanceof ServerResponse)) return undefined;
  const response: ServerResponse = outgoing;
  return {
    state: () => (response.destroyed || response.writableEnded ? 'closed' : response.headersSent ? 'open' : 'waiting'),
    write: (chunk) => void response.write(chunk),
    // What the response and its socket hold that the kernel has not taken.
    buffered: () => response.writableLength,
    destroy: () => void response.destroy(),
    onFinished(callback) {
      response.once('finish', callback);
      response.once('close', callback);
    },
  };
}
