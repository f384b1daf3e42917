import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../runtime/capability';
import { textResult } from '../runtime/results';
import { foldAll, initialThreadState, type ApprovalRow } from '../runtime/fold';
import { createWorkspaceServer, type WorkspaceServer } from './createWorkspaceServer';

// Confirmation on the MCP door (issue 43): an opted-in mutate that requires confirmation asks the
// client's user through elicitation where the client offers it, and otherwise answers a tool error
// that says where a person approves it (the chat's approval row). Official SDK clients on both sides.

const KEY = 'mcp-approval-key-0123456789';
let exported: string[] = [];
let server: WorkspaceServer | null = null;
const clients: Client[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  await server?.close();
  server = null;
  exported = [];
});

const exportCrm = defineCapability({
  name: 'crm.export',
  title: 'Export to CRM',
  description: 'Writes the enriched records to the CRM staging table (overwrites it).',
  kind: 'mutate',
  requires_user_confirmation: true,
  annotations: { destructiveHint: true, openWorldHint: false },
  input: z.object({ table: z.string().default('staging') }),
  handler: async ({ table }) => {
    exported.push(table);
    return textResult(`Exported 3 records to ${table}.`, { exported: 3, table });
  },
});

const OTHER = 'mcp-approval-other-0123456789';

async function start() {
  server = await createWorkspaceServer({ capabilities: [exportCrm], database: ':memory:', apiKeys: [{ id: 'agent', key: KEY }, { id: 'other', key: OTHER }], mcp: { mutates: ['crm.export'] } });
  return (await server.listen()).url;
}

type Answer = 'accept' | 'decline' | 'cancel';

/** An SDK v2 client; with `answer`, it declares form elicitation and answers every form so (recording what it was asked). */
async function connect(url: string, era: 'modern' | 'legacy', answer?: Answer, asked: string[] = []) {
  const client = new Client(
    { name: 'approval-agent', version: '1.0.0' },
    { ...(era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' as const } } } : {}), ...(answer ? { capabilities: { elicitation: { form: {} } } } : {}) },
  );
  if (answer) {
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(String((request.params as { message: string }).message));
      // Nothing has run while the person is being asked.
      expect(exported).toEqual([]);
      return answer === 'accept' ? { action: 'accept', content: {} } : { action: answer };
    });
  }
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${KEY}` } } }));
  clients.push(client);
  expect(client.getProtocolEra()).toBe(era);
  return client;
}

const textOf = (result: { content?: unknown }) => (result.content as { type: string; text: string }[])[0]!.text;

async function mainRows() {
  const events = await server!.host.events.read({ user: 'agent', space: 'default', id: 'main' }, 0);
  return foldAll(initialThreadState, events).rows;
}

describe('confirmation on the MCP door', () => {
  it('asks through elicitation where the client offers it, and runs only on accept, once', async () => {
    const url = await start();
    const asked: string[] = [];
    const client = await connect(url, 'modern', 'accept', asked);
    const result = await client.callTool({ name: 'crm.export', arguments: { table: 'staging' } });
    expect(asked).toEqual(['Export to CRM asks for your approval before it runs (nothing has run yet). Accept to run it now, or decline and it will not run.']);
    expect(result.isError).toBeFalsy();
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'Exported 3 records to staging.' }], structuredContent: { exported: 3, table: 'staging' } });
    expect(exported).toEqual(['staging']);
    const [job] = await server!.jobs.list({ threadKey: 'mcp:agent' });
    expect(job).toMatchObject({ status: 'done', approval: { state: 'approved', decidedVia: 'mcp' } });
    // No row in the chat: the client's user was asked.
    expect((await mainRows()).filter((r) => r.kind === 'approval')).toEqual([]);
  });

  it('runs nothing when the user declines the form', async () => {
    const url = await start();
    const client = await connect(url, 'modern', 'decline');
    const result = await client.callTool({ name: 'crm.export', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("Export to CRM was declined in the MCP client's approval form, so it did not run.");
    expect(exported).toEqual([]);
    const [job] = await server!.jobs.list({ threadKey: 'mcp:agent' });
    expect(job).toMatchObject({ status: 'cancelled', approval: { state: 'declined', decidedVia: 'mcp' } });
  });

  it('without elicitation answers a tool error saying where a person approves it, and runs once when a person approves in the chat', async () => {
    const url = await start();
    const client = await connect(url, 'modern');
    const result = await client.callTool({ name: 'crm.export', arguments: { table: 'staging' } });
    expect(result.isError).toBe(true);
    const [job] = await server!.jobs.list({ threadKey: 'mcp:agent' });
    expect(textOf(result)).toBe(job!.approval!.message);
    expect(textOf(result)).toMatch(new RegExp(`^Export to CRM needs a person's approval before it runs, and nothing has run yet: a person approves or denies it in the chat \\(the approval row in thread "main"\\).*Follow it with GET /v1/jobs/${job!.id}\\.`));
    expect(exported).toEqual([]);
    // The agent asks again: the same job, not a second row for the person.
    const again = await client.callTool({ name: 'crm.export', arguments: { table: 'staging' } });
    expect(textOf(again)).toBe(textOf(result));
    const rows = (await mainRows()).filter((r): r is ApprovalRow => r.kind === 'approval');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.reason).toMatch(/^Asked for through an MCP client, not in this chat\./);

    await server!.host.decide({ user: 'agent' }, { threadId: 'main', id: rows[0]!.id, decision: 'approve' });
    expect(exported).toEqual(['staging']);
    expect(await server!.jobs.get(job!.id)).toMatchObject({ status: 'done', result: { structuredContent: { table: 'staging' } } });
  });

  it('a 2025-era client (stateless: its capabilities are unknown here) gets the tool error too, even when it declared elicitation', async () => {
    const url = await start();
    const client = await connect(url, 'legacy', 'accept');
    const result = await client.callTool({ name: 'crm.export', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/needs a person's approval before it runs, and nothing has run yet: a person approves or denies it in the chat/);
    expect(exported).toEqual([]);
  });

  it('an answer cannot skip the question: one sent unasked, for another key\'s job or for other arguments runs nothing', async () => {
    const url = await start();
    // A client that answers by hand (manual multi-round-trip mode).
    const manual = async (key: string) => {
      const client = new Client({ name: 'manual-agent', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { form: {} } }, inputRequired: { autoFulfill: false } });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
      clients.push(client);
      return client;
    };
    type Call = { name: string; arguments: Record<string, unknown>; inputResponses?: unknown; requestState?: string };
    const call = (client: Client, params: Call) => client.callTool(params as Parameters<Client['callTool']>[0], { allowInputRequired: true }) as Promise<Record<string, any>>;
    const accept = { approval: { action: 'accept', content: {} } };
    const agent = await manual(KEY);
    const other = await manual(OTHER);

    // Unasked: an accept with no request state is asked the question again.
    const unasked = await call(agent, { name: 'crm.export', arguments: {}, inputResponses: accept });
    expect(unasked.resultType).toBe('input_required');
    expect(unasked.requestState).toMatch(/^inv_/);
    expect(exported).toEqual([]);

    // Another key's job: not this caller's to answer.
    const theirs = await call(other, { name: 'crm.export', arguments: {}, inputResponses: accept, requestState: unasked.requestState });
    expect(theirs.isError).toBe(true);
    expect(theirs.content[0].text).toBe('This approval answer does not belong to a call of yours that waits for one; call the tool again to be asked again.');
    // Other arguments than the ones asked about.
    const changed = await call(agent, { name: 'crm.export', arguments: { table: 'production' }, inputResponses: accept, requestState: unasked.requestState });
    expect(changed.isError).toBe(true);
    expect(changed.content[0].text).toMatch(/^The arguments changed since the approval was asked for, so nothing ran/);
    expect(exported).toEqual([]);

    // The real answer to the real question runs it, once; the same answer again runs nothing.
    const answered = await call(agent, { name: 'crm.export', arguments: {}, inputResponses: accept, requestState: unasked.requestState });
    expect(answered).toMatchObject({ structuredContent: { table: 'staging' } });
    const replayed = await call(agent, { name: 'crm.export', arguments: {}, inputResponses: accept, requestState: unasked.requestState });
    expect(replayed.isError).toBe(true);
    expect(replayed.content[0].text).toMatch(/was already approved/);
    expect(exported).toEqual(['staging']);
  });
});
