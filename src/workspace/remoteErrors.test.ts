import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../runtime/capability';
import { resultText, textResult } from '../runtime/results';
import { bearerKeys } from '../server/authenticators';
import { createWorkspaceServer, type WorkspaceServer, type WorkspaceServerOptions } from '../server/createWorkspaceServer';
import { freePort } from '../test/freePort';
import { createRemoteWorkspace, RemoteWorkspaceError, type RemoteWorkspace } from './remoteWorkspace';

/**
 * What the remote workspace says when its server refuses or is not there,
 * against real HTTP servers: the status, the server's code and words, and a
 * sentence that names the server and the cause (docs/server.md, "When
 * something goes wrong").
 */

const KEY = 'remote-errors-key-0123456789';
const add = defineCapability({
  name: 'math.add',
  title: 'Add',
  description: 'Adds two numbers.',
  input: z.object({ a: z.number(), b: z.number() }),
  handler: ({ a, b }) => textResult(String(a + b)),
});

let server: WorkspaceServer | null = null;
const others: Server[] = [];
const remotes: RemoteWorkspace[] = [];

afterEach(async () => {
  vi.unstubAllGlobals();
  for (const remote of remotes.splice(0)) remote.close();
  await server?.close();
  server = null;
  await Promise.all(others.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function start(options: Partial<WorkspaceServerOptions> = {}) {
  server = await createWorkspaceServer({ capabilities: [add], database: ':memory:', authenticate: bearerKeys([{ id: 'dev', key: KEY }]), ...options });
  return (await server.listen()).url;
}

/** An HTTP server that is not the workspace server (a dev server with no proxy): every path answers `status` with HTML. */
async function htmlServer(status: number): Promise<string> {
  const other = createServer((_req, res) => res.writeHead(status, { 'content-type': 'text/html' }).end('<!doctype html><title>Vite</title>'));
  others.push(other);
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(other.address() as { port: number }).port}`;
}

/** The error a promise rejects with. */
async function refusal(promise: Promise<unknown>): Promise<RemoteWorkspaceError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(RemoteWorkspaceError);
  return error as RemoteWorkspaceError;
}

describe('the remote workspace names the cause of a failed request', () => {
  it('origin refused (403): the status, the code, and the server’s words naming allowedOrigins', async () => {
    const url = await start();
    const error = await refusal(createRemoteWorkspace({ url, headers: { authorization: `Bearer ${KEY}`, origin: 'http://page.example' } }));
    expect(error).toMatchObject({ status: 403, code: 'cross_origin' });
    expect(error.serverMessage).toBe('This server does not answer requests from http://page.example; its host can list origins in allowedOrigins.');
    expect(error.message).toBe(`The workspace server at ${url} refused this page's origin (403): ${error.serverMessage}`);
  });

  it('signed out (401): createRemoteWorkspace, send and invoke all say so, with the server’s words', async () => {
    const url = await start();
    const said = 'Sign in to use this workspace.';
    const sentence = `You are not signed in to the workspace server at ${url} (401): ${said}`;
    const first = await refusal(createRemoteWorkspace({ url }));
    expect(first).toMatchObject({ status: 401, code: 'unauthorized', serverMessage: said, message: sentence });
    // A page whose session ended after it loaded (it has the manifest): the send is refused in the same words.
    const signedIn = await createRemoteWorkspace({ url, headers: { authorization: `Bearer ${KEY}` } });
    remotes.push(signedIn);
    const remote = await createRemoteWorkspace({ url, manifest: signedIn.manifest });
    remotes.push(remote);
    expect(await refusal(remote.send({ threadId: 't1', text: 'hello' }))).toMatchObject({ status: 401, message: sentence });
    const result = await remote.invoke({ threadId: 't1', capability: 'math.add', args: { a: 1, b: 2 } });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain(sentence);
  });

  it('not found (404): the server’s words; and a 404 from something that is not the workspace server says to check the address or the proxy', async () => {
    const url = await start();
    const remote = await createRemoteWorkspace({ url, headers: { authorization: `Bearer ${KEY}` } });
    remotes.push(remote);
    await remote.send({ threadId: 't2', text: 'hello' });
    const missing = await refusal(remote.decide({ threadId: 't2', id: 'prop_missing', decision: 'accept' }));
    expect(missing.status).toBe(404);
    expect(missing.serverMessage).toContain('prop_missing');
    expect(missing.message).toBe(`The workspace server at ${url} could not find what was asked for (404): ${missing.serverMessage}`);

    const vite = await htmlServer(404);
    const elsewhere = await refusal(createRemoteWorkspace({ url: vite }));
    expect(elsewhere).toMatchObject({ status: 404, code: 'http_error', serverMessage: '' });
    expect(elsewhere.message).toBe(`Nothing at ${vite} answers the workspace protocol (404 for GET /v1/manifest). Check the server's address, or that the dev proxy passes /v1 on to it.`);
    // A dev server's page fallback answers 200 with HTML: not JSON, said so.
    const fallback = await htmlServer(200);
    const html = await refusal(createRemoteWorkspace({ url: fallback }));
    expect(html).toMatchObject({ status: 200, code: 'not_json' });
    expect(html.message).toContain(`The answer from ${fallback} to GET /v1/manifest is not JSON (text/html)`);
  });

  it('too large (413): the server’s limit in its own words', async () => {
    const url = await start({ maxBodyBytes: 2_048 });
    const remote = await createRemoteWorkspace({ url, headers: { authorization: `Bearer ${KEY}` } });
    remotes.push(remote);
    const error = await refusal(remote.send({ threadId: 't3', text: 'x'.repeat(4_000) }));
    expect(error).toMatchObject({ status: 413, code: 'payload_too_large', serverMessage: 'The request body is larger than 2048 bytes.' });
    expect(error.message).toBe(`That is too large for the workspace server at ${url} (413): The request body is larger than 2048 bytes.`);
  });

  it('server down: it cannot be reached, naming the URL', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const error = await refusal(createRemoteWorkspace({ url }));
    expect(error).toMatchObject({ status: 0, code: 'unreachable' });
    expect(error.message).toMatch(new RegExp(`^Could not reach the workspace server at ${url.replace(/\./g, '\\.')} \\(fetch failed\\)\\. Check that it is running`));
  });

  describe('on a browser page of another origin (the browser’s CORS rule played by the fetch)', () => {
    const PAGE = 'http://page.example';
    /**
     * fetch as a browser page on PAGE has it: the Origin header is sent; a CORS answer without
     * `Access-Control-Allow-Origin: PAGE` is a network error; a `no-cors` request resolves to
     * an opaque answer when anything answered at all.
     */
    const browserFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, { ...init, mode: 'cors', headers: { ...(init?.headers as Record<string, string>), origin: PAGE } });
      if (init?.mode === 'no-cors') return new Response(null);
      if (response.headers.get('access-control-allow-origin') !== PAGE) throw new TypeError('Failed to fetch');
      return response;
    };

    it('a refused origin, hidden by the browser ("Failed to fetch"), is named: the server answered, list the page in allowedOrigins', async () => {
      vi.stubGlobal('location', { origin: PAGE });
      const url = await start();
      const error = await refusal(createRemoteWorkspace({ url, fetch: browserFetch, headers: { authorization: `Bearer ${KEY}` } }));
      expect(error).toMatchObject({ status: 0, code: 'cross_origin' });
      expect(error.message).toBe(
        `The workspace server at ${url} answered, but not to this page: it answers only its own origin and the origins in its allowedOrigins. List ${PAGE} in allowedOrigins, or serve this page and the server from one origin (a dev proxy).`,
      );
    });

    it('a listed origin reads the refusal itself (401), and a server that is down stays unreachable', async () => {
      vi.stubGlobal('location', { origin: PAGE });
      const url = await start({ allowedOrigins: [PAGE] });
      expect(await refusal(createRemoteWorkspace({ url, fetch: browserFetch }))).toMatchObject({ status: 401, message: expect.stringMatching(/^You are not signed in to the workspace server at .* \(401\): Sign in/) });
      const down = `http://127.0.0.1:${await freePort()}`;
      expect(await refusal(createRemoteWorkspace({ url: down, fetch: browserFetch }))).toMatchObject({ status: 0, code: 'unreachable', message: expect.stringContaining(`Could not reach the workspace server at ${down}`) });
    });

    it('a thread’s event stream refused that way ends as failed, with the sentence, instead of reconnecting for ever', async () => {
      vi.stubGlobal('location', { origin: PAGE });
      const url = await start();
      const manifest = { capabilities: [], driver: { id: 'offline', label: 'Offline model' }, alignment: 'strict' as const, anticipation: {} };
      const states: string[] = [];
      const remote = await createRemoteWorkspace({ url, fetch: browserFetch, manifest, retryMs: 20, onConnectionChange: (_t, state, detail) => states.push(`${state}: ${detail ?? ''}`) });
      remotes.push(remote);
      remote.subscribe('t4', () => {});
      await expect.poll(() => states, { timeout: 2_000 }).toEqual([expect.stringMatching(/^failed: The workspace server at .* answered, but not to this page/)]);
    });
  });
});
