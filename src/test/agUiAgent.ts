import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BaseEvent, RunAgentInput } from '@ag-ui/core';
import { RunAgentInputSchema } from '@ag-ui/core/schemas';
import { EventEncoder } from '@ag-ui/encoder';
import { scriptedAgentEvents } from './agUiScript';

/** The scripted AG-UI agent (`scriptedAgentEvents`) over HTTP, encoded with the official encoder; every input is validated with `@ag-ui/core`'s schema. */
export async function serveTestAgent(): Promise<{ url: string; inputs: RunAgentInput[]; close(): Promise<void> }> {
  const inputs: RunAgentInput[] = [];
  const http: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const parsed = RunAgentInputSchema.safeParse(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    if (!parsed.success) {
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: parsed.error.message }));
      return;
    }
    const input = parsed.data as RunAgentInput;
    inputs.push(input);
    const encoder = new EventEncoder({ accept: req.headers.accept ?? 'text/event-stream' });
    res.writeHead(200, { 'content-type': encoder.getContentType() });
    for (const event of scriptedAgentEvents(input)) res.write(encoder.encode(event as unknown as BaseEvent));
    res.end();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/agent`,
    inputs,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
