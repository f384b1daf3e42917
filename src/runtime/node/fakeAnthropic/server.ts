import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendError } from './errors';
import { readBody, recordOf, type RecordedRequest } from './requests';

/** The fake's HTTP server: started on a random port of 127.0.0.1, each request recorded, then handled. */

/** Answers one recorded request (its body read); a throw before the headers are sent is a 500. */
export type Handler = (record: RecordedRequest, index: number, res: ServerResponse) => Promise<void>;

export interface Listening {
  url: string;
  requests: RecordedRequest[];
  /** Resolves when request `index` has ended or its connection closed. */
  settled(index: number): Promise<void>;
  close(): Promise<void>;
}

export async function listen(handle: Handler): Promise<Listening> {
  const requests: RecordedRequest[] = [];
  const done = new Map<number, Promise<void>>();

  const server = createServer((req, res) => {
    const index = requests.length;
    const record = recordOf(req);
    requests.push(record);
    done.set(index, new Promise((resolve) => res.on('close', () => {
      if (!res.writableEnded) record.closedEarly = true;
      resolve();
    })));
    readBody(req, record, () => {
      handle(record, index, res).catch((error: unknown) => {
        if (!res.headersSent) sendError(res, record, { status: 500, type: 'api_error', message: String(error) });
        else res.destroy();
      });
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    settled: (index) => done.get(index) ?? Promise.reject(new Error(`The fake has no request ${index} (it has ${requests.length}).`)),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
