import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ThreadEvent } from '../events';
import { foldAll, initialThreadState, type AssistantRow } from '../fold';
import { createThreadHost } from '../host/threadHost';
import type { ModelDriver, ModelMessage } from '../model';
import { catalogNode } from '../catalogNodes';
import { createProcessHarness } from './processHarness';

const ECHO = join(import.meta.dirname, '../../../reference/harness/echo-harness.mjs');
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The chat's own model: records what it was asked, so a test sees whether it answered. */
function chatModel() {
  const asked: ModelMessage[][] = [];
  const driver: ModelDriver = {
    info: { id: 'chat', label: 'Chat model' },
    async *respond({ messages }) {
      asked.push(messages.slice());
      yield { type: 'text', text: 'The chat model answers.' };
    },
  };
  return { driver, asked };
}

function setUp() {
  const state = mkdtempSync(join(tmpdir(), 'chatsurface-harness-'));
  dirs.push(state);
  const harness = createProcessHarness({
    label: 'Echo harness',
    send: [process.execPath, ECHO, 'send'],
    login: [process.execPath, ECHO, 'login'],
    logout: [process.execPath, ECHO, 'logout'],
    status: [process.execPath, ECHO, 'status'],
    env: { ECHO_HARNESS_STATE: state },
  });
  const chat = chatModel();
  const host = createThreadHost({
    capabilities: [],
    driver: chat.driver,
    idleMs: Infinity,
    skills: [catalogNode('Harness/echo', { nodeType: 'Harness', name: 'Echo', description: 'A scripted command-line harness.', commands: ['login', 'logout', 'status'] })],
    harnesses: { 'Harness/echo': harness },
  });
  const events: ThreadEvent[] = [];
  host.subscribe({ user: 'ada' }, 't1', (e) => events.push(e));
  const rows = () => foldAll(initialThreadState, events).rows;
  const lastReply = () => (rows().filter((r) => r.kind === 'assistant').at(-1) as AssistantRow | undefined)?.text.trim();
  const lastError = () => events.filter((e) => e.type === 'turn.error').at(-1) as Extract<ThreadEvent, { type: 'turn.error' }> | undefined;
  const send = (text: string) => host.send({ user: 'ada' }, { threadId: 't1', text });
  const pick = (harnessPath: string) => host.setComposer({ user: 'ada' }, { threadId: 't1', composer: { harness: harnessPath } });
  return { host, chat, events, rows, lastReply, lastError, send, pick };
}

describe('harness routing: under a command-line harness the text goes to it, not to the chat model', () => {
  it('signs in with /login, forwards messages and raw /skill text 1:1, reports /status, signs out with /logout', async () => {
    const t = setUp();
    await t.pick('Harness/echo');
    await t.send('hello');
    // Not signed in: the harness says so, and nothing reached the chat's model.
    expect(t.lastError()).toMatchObject({ code: 'harness_failed', message: 'Echo harness failed: Not signed in: type /login first.' });
    await t.send('/login');
    expect(t.lastReply()).toBe('Signed in to the echo harness as ada.');
    await t.send('/status');
    expect(t.lastReply()).toMatch(/^Signed in to the echo harness as ada since /);
    await t.send('hello there');
    expect(t.lastReply()).toBe('Echo harness heard: hello there');
    // Streamed as it came, under the harness's name.
    const reply = t.events.filter((e) => e.type === 'message.created' && e.role === 'assistant').at(-1) as Extract<ThreadEvent, { type: 'message.created' }>;
    expect(reply.driver).toEqual({ id: 'harness:Harness/echo', label: 'Echo harness' });
    expect(t.events.filter((e) => e.type === 'message.delta' && e.message_id === reply.message_id).length).toBeGreaterThan(1);
    await t.send('/summarize the records');
    expect(t.lastReply()).toBe('Echo harness: I would load the summarize skill and then do: the records');
    await t.send('/logout');
    expect(t.lastReply()).toBe('Signed out of the echo harness.');
    await t.send('hello again');
    expect(t.lastError()?.message).toBe('Echo harness failed: Not signed in: type /login first.');
    expect(t.chat.asked).toEqual([]);
  }, 20_000);

  it('a command-line harness the host did not wire says so, and the chat model is not asked', async () => {
    const t = setUp();
    await t.pick('Harness/claude-code');
    await t.send('/login');
    expect(t.lastError()).toMatchObject({ code: 'harness_unavailable' });
    expect(t.lastError()?.message).toContain('Claude Code is not connected to this workspace');
    expect(t.chat.asked).toEqual([]);
  });

  it('back on the chat harness, the chat model answers and sees what was said to the harness', async () => {
    const t = setUp();
    await t.pick('Harness/echo');
    await t.send('/login');
    await t.send('plan the import');
    await t.pick('Harness/chat');
    await t.send('what did it say?');
    expect(t.lastReply()).toBe('The chat model answers.');
    const seen = t.chat.asked.at(-1)!;
    expect(seen.map((m) => (m.role === 'tool' ? 'tool' : `${m.role}: ${m.text.trim()}`))).toEqual([
      'user: /login',
      'assistant: Signed in to the echo harness as ada.',
      'user: plan the import',
      'assistant: Echo harness heard: plan the import',
      'user: what did it say?',
    ]);
  }, 20_000);

  it('Stop ends a harness turn: the process is killed and the turn is stopped', async () => {
    const t = setUp();
    await t.pick('Harness/echo');
    await t.send('/login');
    const long = t.send(Array.from({ length: 200 }, (_, i) => `w${i}`).join(' '));
    await expect.poll(() => t.events.filter((e) => e.type === 'message.delta').length, { timeout: 5_000 }).toBeGreaterThan(2);
    const turn = t.events.filter((e) => e.type === 'turn.started').at(-1) as Extract<ThreadEvent, { type: 'turn.started' }>;
    expect(await t.host.cancel({ user: 'ada' }, { threadId: 't1', id: turn.turn_id })).toBe(true);
    await long;
    expect(t.events.at(-1)).toMatchObject({ type: 'turn.done', turn_id: turn.turn_id, outcome: 'cancelled' });
  }, 20_000);
});
