import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Authenticate } from '../runtime/principal';
import { addressKey } from './clientAddress';
import { createWorkspaceServer, type WorkspaceServer, type WorkspaceServerOptions } from './createWorkspaceServer';

/**
 * Caps a new guest cookie cannot reset (issue 43 item 4): every guest is a new user with a fresh
 * per-user cap, so threads and saved skills are also counted per client address and per space, in the
 * database, across restarts.
 */
const dir = mkdtempSync(join(tmpdir(), 'chatsurface-caps-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Each request names its guest (as a fresh cookie would) and the space. */
const guests: Authenticate = (request) => {
  const user = request.headers.get('x-guest');
  return user ? { user, space: request.headers.get('x-space') ?? 'demo' } : null;
};

async function start(database: string, limits: WorkspaceServerOptions['limits']): Promise<WorkspaceServer> {
  return createWorkspaceServer({ capabilities: [], database, authenticate: guests, limits: { trustProxy: true, ...limits } });
}

/** A new thread for a guest from an address (behind the host's proxy, which sets X-Forwarded-For). */
const newThread = (server: WorkspaceServer, guest: string, address: string, space = 'demo') =>
  server.fetch(
    new Request(`http://127.0.0.1/v1/threads/t-${guest}/view`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-guest': guest, 'x-space': space, 'x-forwarded-for': `10.9.9.9, ${address}` },
      body: JSON.stringify({ view: { kind: 'records' } }),
    }),
  );

const saveSkill = (server: WorkspaceServer, guest: string, address: string, id: string) =>
  server.fetch(
    new Request('http://127.0.0.1/v1/skills', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-guest': guest, 'x-forwarded-for': address },
      body: JSON.stringify({ threadId: `t-${guest}`, id, description: 'Weekly report.', instructions: 'Group by week.' }),
    }),
  );

describe('caps per address and per space', () => {
  it('40 new guests from one address make 5 threads, not 40; the rest are refused in words with Retry-After, and another address still can', async () => {
    const server = await start(':memory:', { threads: { perAddress: 5 } });
    try {
      const answers = [];
      for (let i = 0; i < 40; i++) answers.push(await newThread(server, `g${i}`, '198.51.100.7'));
      expect(answers.filter((r) => r.status === 200)).toHaveLength(5);
      const refused = answers.filter((r) => r.status === 429);
      expect(refused).toHaveLength(35);
      const body = await refused[0]!.json();
      expect(body.error.code).toBe('thread_limit');
      expect(body.error.message).toMatch(/^5 new threads were started from your network address in the last 24 hours, the most this workspace allows\. Continue an existing thread, or try again in (23|24) hours\.$/);
      expect(Number(refused[0]!.headers.get('retry-after'))).toBeGreaterThan(86_000);
      // A guest who has a thread keeps using it.
      expect((await newThread(server, 'g0', '198.51.100.7')).status).toBe(200);
      expect((await newThread(server, 'other', '203.0.113.5')).status).toBe(200);
      // One IPv6 client holds a /64: its addresses count as one.
      for (let i = 0; i < 5; i++) expect((await newThread(server, `v6-${i}`, `2001:db8:1:2::${i + 1}`)).status).toBe(200);
      expect((await newThread(server, 'v6-more', '2001:db8:1:2:ffff::9')).status).toBe(429);
    } finally {
      await server.close();
    }
  });

  it('a space holds at most its cap of threads, whatever the addresses, and the cap holds across a restart', async () => {
    const path = join(dir, 'space.db');
    const first = await start(path, { threads: { perSpace: 6 } });
    try {
      for (let i = 0; i < 6; i++) expect((await newThread(first, `s${i}`, `192.0.2.${i + 1}`)).status).toBe(200);
      const over = await newThread(first, 's-over', '192.0.2.99');
      expect(over.status).toBe(429);
      expect((await over.json()).error.message).toBe(
        "This space already has 6 threads, the most this workspace keeps for one space. Continue an existing thread, or ask the workspace's owner to raise the limit.",
      );
      expect((await newThread(first, 's-other-space', '192.0.2.99', 'elsewhere')).status).toBe(200);
    } finally {
      await first.close();
    }
    const restarted = await start(path, { threads: { perSpace: 6 } });
    try {
      expect((await newThread(restarted, 's-after', '192.0.2.100')).status).toBe(429);
    } finally {
      await restarted.close();
    }
  });

  it('new guests from one address save at most the address’s cap of skills; a refused save is not kept', async () => {
    const server = await start(':memory:', { skills: { perAddress: 3 } });
    try {
      const answers = [];
      for (let i = 0; i < 6; i++) {
        expect((await newThread(server, `k${i}`, '198.51.100.8')).status).toBe(200);
        answers.push(await saveSkill(server, `k${i}`, '198.51.100.8', 'weekly'));
      }
      expect(answers.map((r) => r.status)).toEqual([201, 201, 201, 429, 429, 429]);
      const body = await answers[3]!.json();
      expect(body.error.code).toBe('skill_limit');
      expect(body.error.message).toMatch(/^\/weekly: 3 skills were saved from your network address in the last 24 hours, the most this workspace allows; save over one of them, or try again in (23|24) hours\.$/);
      // Saving over one's own skill adds nothing, so it is not refused.
      expect((await saveSkill(server, 'k0', '198.51.100.8', 'weekly')).status).toBe(201);
      const list = await server.fetch(new Request('http://127.0.0.1/v1/nodes?q=namespace:{user}/Skill', { headers: { 'x-guest': 'k4' } }));
      expect((await list.json()).nodes).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('counts each request by its own address when requests share one principal object (a cached key), and leaves that object as it was', async () => {
    const shared = { user: 'shared', space: 'demo' };
    const server = await createWorkspaceServer({ capabilities: [], database: ':memory:', authenticate: () => shared, limits: { trustProxy: true, threads: { perAddress: 2 } } });
    try {
      const from = (address: string, id: string) =>
        server.fetch(
          new Request(`http://127.0.0.1/v1/threads/${id}/view`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
            body: JSON.stringify({ view: { kind: 'records' } }),
          }),
        );
      // Interleaved, all at once: an address kept beside the shared object would be the last request's for all of them.
      const answers = await Promise.all([0, 1, 2].flatMap((i) => [from('198.51.100.1', `a${i}`), from('198.51.100.2', `b${i}`)]));
      const statuses = answers.map((r) => r.status);
      expect(statuses.filter((s, i) => i % 2 === 0 && s === 200)).toHaveLength(2);
      expect(statuses.filter((s, i) => i % 2 === 1 && s === 200)).toHaveLength(2);
      expect(statuses.filter((s) => s === 429)).toHaveLength(2);
      expect(shared).toEqual({ user: 'shared', space: 'demo' });
      expect(Object.getOwnPropertySymbols(shared)).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('counts by the socket’s peer when served by listen, with no proxy to believe', async () => {
    const server = await createWorkspaceServer({ capabilities: [], database: ':memory:', authenticate: guests, limits: { threads: { perAddress: 2 } } });
    try {
      const { url } = await server.listen();
      const post = (guest: string) =>
        fetch(`${url}/v1/threads/t-${guest}/view`, {
          method: 'POST',
          // A forwarded hop is not believed without trustProxy: all three come from 127.0.0.1.
          headers: { 'content-type': 'application/json', 'x-guest': guest, 'x-forwarded-for': `192.0.2.${guest.length}` },
          body: JSON.stringify({ view: { kind: 'records' } }),
        });
      const statuses = [];
      for (const guest of ['p', 'pp', 'ppp']) statuses.push((await post(guest)).status);
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await server.close();
    }
  });

  it('tells addresses apart as caps count them', () => {
    expect(addressKey('198.51.100.7')).toBe('198.51.100.7');
    expect(addressKey('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(addressKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('[2001:0db8:0001:0002:aaaa::1]')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});
