import type { IncomingMessage } from 'node:http';
import type { CacheUsage } from '../fakeAnthropicCache';

/** The requests the fake received, each recorded as it arrived and as it was answered. */

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | undefined>;
  /** The body as sent. */
  raw: string;
  /** Body size in bytes. */
  bytes: number;
  /** The parsed body (undefined when it is not JSON). */
  body: any;
  authorized: boolean;
  /** Usage by the prefix rule; absent for refused requests. */
  usage?: CacheUsage;
  /** True when the client closed the connection before the reply ended. */
  closedEarly: boolean;
  /** The HTTP status answered. */
  status?: number;
  /** The error answered, as the API words it (an HTTP error; a scripted mid-stream error is not one). */
  error?: { type: string; message: string };
  /** True when the fake refused on its own because the request still carried a refused turn. */
  refusedAgain?: boolean;
}

/** A request as it arrives, before its body is read. */
export function recordOf(req: IncomingMessage): RecordedRequest {
  return { method: req.method ?? '', path: req.url ?? '', headers: flat(req), raw: '', bytes: 0, body: undefined, authorized: false, closedEarly: false };
}

/** Reads the body into `record` (`raw`, `bytes`, and `body` when it is JSON), then calls `then`. */
export function readBody(req: IncomingMessage, record: RecordedRequest, then: () => void): void {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const buffer = Buffer.concat(chunks);
    record.raw = buffer.toString('utf8');
    record.bytes = buffer.length;
    try {
      record.body = JSON.parse(record.raw);
    } catch {
      record.body = undefined;
    }
    then();
  });
}

function flat(req: IncomingMessage): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(req.headers)) out[key] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}
