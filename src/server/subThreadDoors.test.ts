import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import type { ThreadEvent } from '../runtime/events';
import { foldAll, initialThreadState } from '../runtime/fold';
import type { ModelDriver } from '../runtime/model';
import { defineSkillCapability } from '../runtime/sources/skill';
import { createWorkspaceServer, type WorkspaceServer } from './createWorkspaceServer';

/** A sub-thread skill (issue 15) over REST and MCP: it runs in a thread of the caller's own; the answer is its id and outcome. */
const KEY = 'test-key-0123456789';
let server: WorkspaceServer | null = null;
const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  await server?.close();
  server = null;
});

const plan = defineSkillCapability('---\nname: plan-import\ndescription: Plans an import run.\nmetadata:\n  launchesSubThread: "true"\n---\nList the files first, then the checks.\n', { title: 'Plan an import' });
const driver: ModelDriver = {
  info: { id: 'scripted', label: 'Scripted' },
  async *respond(request) {
    const task = request.messages.at(-1);
    const loaded = request.skills?.map((s) => s.body.trim()).join(' ') ?? '';
    yield { type: 'text', text: `Following "${loaded}" for ${task?.role === 'user' ? task.text : '?'}: three files.` };
  },
};

async function start() {
  server = await createWorkspaceServer({ capabilities: [plan], driver, database: ':memory:', apiKeys: [{ id: 'agent', key: KEY }] });
  return (await server.listen()).url;
}

describe('a sub-thread skill on the doors', () => {
  it('REST: runs the task in a new thread of the caller with the instructions loaded, and answers with its id and outcome', async () => {
    const url = await start();
    const response = await fetch(`${url}/v1/capabilities/plan-import`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
      body: JSON.stringify({ task: 'the leads folder' }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { content: { text: string }[]; structuredContent: { thread_id: string; outcome: string } };
    expect(body.content[0]!.text).toBe('Following "List the files first, then the checks." for the leads folder: three files.');
    expect(body.structuredContent).toMatchObject({ outcome: 'done', thread_id: expect.stringMatching(/^plan-import\.sub-/) });
    // The thread is the caller's, with its own transcript.
    const principal = { user: 'agent' };
    expect(await server!.host.exists(principal, body.structuredContent.thread_id)).toBe(true);
    const events = (await server!.host.events.read({ user: 'agent', space: 'default', id: body.structuredContent.thread_id })) as ThreadEvent[];
    expect(foldAll(initialThreadState, events).rows.map((r) => r.kind)).toEqual(['user', 'assistant']);
  });

  it('MCP: the tool takes a task and gives the same answer', async () => {
    const url = await start();
    const client = new Client({ name: 'test-agent', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${KEY}` } } }));
    clients.push(client);
    const tool = (await client.listTools()).tools.find((t) => t.name === 'plan-import')!;
    expect(Object.keys((tool.inputSchema as { properties: object }).properties)).toEqual(['task']);
    const result = (await client.callTool({ name: 'plan-import', arguments: { task: 'two CSV files' } })) as { content: { text: string }[]; structuredContent: { outcome: string } };
    expect(result.content[0]!.text).toContain('for two CSV files: three files.');
    expect(result.structuredContent.outcome).toBe('done');
  });
});
