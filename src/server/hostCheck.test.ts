import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { hostCheck } from './hostCheck';

/** An app behind the check answering "ok", asked with `host`. */
async function ask(options: Parameters<typeof hostCheck>[0], host: string): Promise<{ status: number; body: { error?: { code: string; message: string } } | string }> {
  const app = new Hono();
  const check = hostCheck(options);
  if (check) app.use(check);
  app.get('/', (c) => c.text('ok'));
  const response = await app.request('http://127.0.0.1/', { headers: { host } });
  const text = await response.text();
  return { status: response.status, body: response.status === 200 ? text : JSON.parse(text) };
}

describe('the Host check (DNS-rebinding protection)', () => {
  it('without an authenticate hook answers loopback names only', async () => {
    expect(await ask({ loopbackOnly: true }, '127.0.0.1:4000')).toEqual({ status: 200, body: 'ok' });
    expect(await ask({ loopbackOnly: true }, 'LOCALHOST:4000')).toEqual({ status: 200, body: 'ok' });
    const refused = await ask({ loopbackOnly: true }, 'evil.example.com');
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: { code: 'bad_host', message: expect.stringContaining('only on loopback names') } });
  });

  it('with allowedHosts answers the names listed, whatever the port and case, and refuses the rest in words', async () => {
    const options = { loopbackOnly: false, allowedHosts: ['chat.example.com', 'localhost'] };
    expect(await ask(options, 'Chat.Example.com')).toEqual({ status: 200, body: 'ok' });
    expect(await ask(options, 'localhost:8080')).toEqual({ status: 200, body: 'ok' });
    const refused = await ask(options, 'attacker.example.net:8080');
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: { code: 'bad_host', message: 'This server answers only on chat.example.com, localhost, not "attacker.example.net".' } });
    // A loopback name not listed is refused too: the list is the whole list.
    expect((await ask(options, '127.0.0.1')).status).toBe(403);
  });

  it('is not there with an authenticate hook and no list', () => {
    expect(hostCheck({ loopbackOnly: false })).toBeNull();
  });
});
