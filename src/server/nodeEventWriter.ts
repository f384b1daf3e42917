import { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { DirectEventWriter } from '../workspace/protocol/eventStreamWriter';

/** What Node's `ServerResponse` keeps about its body's framing (public fields, and two long-stable internal ones). */
interface ResponseFraming {
  /** The body goes out in HTTP/1.1 chunks (no `content-length`). */
  chunkedEncoding?: boolean;
  /** The head has been handed to the socket (`headersSent` is true as soon as it is built). */
  _headerSent?: boolean;
  /** Bytes held by the response until its socket is its own (a pipelined request's answer waiting its turn). */
  outputData?: unknown[];
}

/** The response a socket is answering now (Node's `_httpMessage`). */
interface SocketMessage {
  _httpMessage?: unknown;
}

/** The largest chunk framed for the socket; a longer one (a backlog's page, one client's) goes through `response.write`. */
const FRAMED_MAX = 65_536;
/** Chunks framed lately, newest last: the clients written in one stretch of a pass are written the same few chunks, in a row. */
const KEPT = 8;
const recentChunks: Uint8Array[] = [];
const recentFrames: Buffer[] = [];

/**
 * `chunk` as one HTTP/1.1 chunk: its size in hex, CRLF, the bytes, CRLF, as
 * Node's own `write` frames it; made once for all the clients written the same
 * bytes (the fan-out hands them the same object). The last `KEPT` are kept
 * (at most 512 KiB), so a chunk written to thousands is framed once.
 */
function chunkedFrame(chunk: Uint8Array): Buffer {
  for (let i = recentChunks.length - 1; i >= 0; i--) if (recentChunks[i] === chunk) return recentFrames[i]!;
  const size = chunk.byteLength.toString(16);
  const framed = Buffer.allocUnsafe(size.length + chunk.byteLength + 4);
  let at = framed.write(size, 0, 'latin1');
  at += framed.write('\r\n', at, 'latin1');
  framed.set(chunk, at);
  framed.write('\r\n', at + chunk.byteLength, 'latin1');
  if (recentChunks.length >= KEPT) {
    recentChunks.shift();
    recentFrames.shift();
  }
  recentChunks.push(chunk);
  recentFrames.push(framed);
  return framed;
}

/**
 * The Node response behind a request served by `@hono/node-server` (Hono's
 * `c.env.outgoing`) as the event stream's direct writer: a thread's frames are
 * written to the socket with one `write` per client per turn of the fan-out,
 * no web stream in between. Once the response's head is on its socket and its body goes out in
 * HTTP/1.1 chunks, each write is the chunk already framed (framed once for all
 * the clients given the same bytes), straight to the socket: one socket write,
 * where `response.write` writes three pieces (size, bytes, CRLF) corked until
 * the next tick. Otherwise (the head not out yet, a pipelined answer waiting,
 * no chunked framing, a chunk over 64 KiB) it goes through `response.write`.
 * Undefined when the request did not come through a Node `http.Server`
 * (`app.fetch` in tests, another runtime, HTTP/2): the stream then goes
 * through the web body.
 */
export function nodeEventWriter(env: unknown): DirectEventWriter | undefined {
  const outgoing = typeof env === 'object' && env !== null && 'outgoing' in env ? env.outgoing : undefined;
  if (!(outgoing instanceof ServerResponse)) return undefined;
  const response: ServerResponse = outgoing;
  const framing = response as ServerResponse & ResponseFraming;
  /** The socket, once the response's head is on it and its body is chunked: from then on it stays so. */
  let own: Socket | null = null;
  const ownSocket = () => {
    const socket = response.socket;
    if (socket && framing.chunkedEncoding && framing._headerSent && framing.outputData?.length === 0 && (socket as SocketMessage)._httpMessage === response) own = socket;
    return own;
  };
  return {
    state: () => (response.destroyed || response.writableEnded ? 'closed' : response.headersSent ? 'open' : 'waiting'),
    write(chunk) {
      // An empty HTTP/1.1 chunk would end the body.
      if (chunk.byteLength === 0) return;
      const socket = own ?? ownSocket();
      if (socket && chunk.byteLength <= FRAMED_MAX && socket.writable) socket.write(chunkedFrame(chunk));
      else response.write(chunk);
    },
    // What the response and its socket hold that the kernel has not taken.
    buffered: () => response.writableLength,
    destroy: () => void response.destroy(),
    onFinished(callback) {
      response.once('finish', callback);
      response.once('close', callback);
    },
  };
}
