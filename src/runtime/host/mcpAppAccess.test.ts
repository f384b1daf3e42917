import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineCapability, type CapabilityDescriptor } from '../capability';
import { textResult } from '../results';
import type { ThreadEvent } from '../events';
import { withAppPointer, type McpAppResource } from '../mcpApp';
import { createRegistry } from '../registry';
import { createLocalWorkspace } from '../../workspace/localWorkspace';
import { createMcpAppAccess, McpAppAccessError, withAppApprovals } from './mcpAppAccess';
import { createThreadHost } from './threadHost';

const VIEW: McpAppResource = { uri: 'ui://clock/view.html', server: 'clock', html: '<p>clock</p>', csp: {}, permissions: [], problems: [] };

/** A tool of the MCP server `server`, as `defineMcpCapability` makes one: with a view, or callable by its app only. */
function mcpTool(server: string, tool: string, { kind = 'read', view, handler }: { kind?: 'read' | 'mutate'; view?: McpAppResource; handler?: () => void }): CapabilityDescriptor {
  const run = async () => {
    handler?.();
    const result = textResult(`${tool} ran`);
    return view ? withAppPointer(result, view.uri) : result;
  };
  return {
    ...defineCapability({ name: `${server}.${tool}`, title: `${tool} (${server})`, description: `${tool}.`, kind, input: z.object({}), handler: run }),
    source: {
      type: 'mcp',
      server,
      tool,
      handler: run,
      ...(view ? { app: { resourceUri: view.uri, visibility: ['model', 'app'], read: async () => view } } : { visibility: ['app'] }),
    },
  } as CapabilityDescriptor;
}

const cardOf = (events: readonly ThreadEvent[]) => (events.find((e) => e.type === 'capability.started') as { invocation_id: string }).invocation_id;

describe('createMcpAppAccess', () => {
  it('finds the view among the principal’s own capabilities (capabilitiesOf) and nobody else’s', async () => {
    const own = createRegistry([mcpTool('clock', 'show', { view: VIEW })]);
    const host = createThreadHost({ capabilities: [], capabilitiesOf: (p) => (p.user === 'alice' ? own : undefined) });
    await host.invoke({ user: 'alice' }, { threadId: 't', capability: 'clock.show', args: {} });
    const id = cardOf(await host.events.read({ user: 'alice', space: 'default', id: 't' }));

    const withOwn = createMcpAppAccess(host, { capabilitiesOf: (p) => (p.user === 'alice' ? own : undefined) });
    await expect(withOwn.read({ user: 'alice' }, { threadId: 't', invocationId: id })).resolves.toEqual(VIEW);
    // Another user: their thread of that id holds no such card.
    await expect(withOwn.read({ user: 'bob' }, { threadId: 't', invocationId: id })).rejects.toMatchObject({ status: 404, code: 'unknown_invocation' });
    // Without the principal's own capabilities (the access before issue 44): no view to show.
    const sharedOnly = createMcpAppAccess(host);
    const refused = await sharedOnly.read({ user: 'alice' }, { threadId: 't', invocationId: id }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(McpAppAccessError);
    expect((refused as McpAppAccessError).message).toBe('"clock.show" is not among your tools any more (its MCP server was disconnected), so its view cannot be shown.');
  });

  it('in a page’s own workspace: an app’s calls run inside its card, a tool that changes things asked for once per session', async () => {
    const ran = vi.fn();
    const workspace = createLocalWorkspace({
      capabilities: [mcpTool('clock', 'show', { view: VIEW }), mcpTool('clock', 'poll', { handler: ran }), mcpTool('clock', 'reset', { kind: 'mutate', handler: ran })],
    });
    const me = { user: 'me', space: 'default', id: 't' };
    await workspace.invoke({ threadId: 't', capability: 'clock.show', args: {} });
    const id = cardOf(await workspace.host.events.read(me));
    const length = async () => (await workspace.host.events.read(me)).length;
    const before = await length();

    // A read-only, app-only tool: runs at once, and the thread does not grow.
    for (let i = 0; i < 5; i++) {
      expect((await workspace.callAppTool!({ threadId: 't', invocationId: id, name: 'poll', session: 's1' })).result.content).toEqual([{ type: 'text', text: 'poll ran' }]);
    }
    expect(ran).toHaveBeenCalledTimes(5);
    expect(await length()).toBe(before);

    // A mutate: one approval row for the session; the call waits for it; deciding it runs nothing in the thread.
    const first = workspace.callAppTool!({ threadId: 't', invocationId: id, name: 'reset', session: 's1' });
    await vi.waitFor(async () => expect((await workspace.host.events.read(me)).some((e) => e.type === 'approval.requested')).toBe(true));
    const row = (await workspace.host.events.read(me)).find((e) => e.type === 'approval.requested') as { approval_id: string };
    const meanwhile = await workspace.callAppTool!({ threadId: 't', invocationId: id, name: 'reset', session: 's1' });
    expect(meanwhile.result.isError).toBe(true);
    await workspace.decide({ threadId: 't', id: row.approval_id, decision: 'approve' });
    expect((await first).result.content).toEqual([{ type: 'text', text: 'reset ran' }]);
    await workspace.callAppTool!({ threadId: 't', invocationId: id, name: 'reset', session: 's1' });
    expect(ran).toHaveBeenCalledTimes(7);
    const added = (await workspace.host.events.read(me)).slice(before).map((e) => e.type);
    expect(added).toEqual(['approval.requested', 'approval.resolved']);
  });

  it('a first call that waited its time says so; the session’s next call after the decision runs, read from the log', async () => {
    const ran = vi.fn();
    const host = createThreadHost({ capabilities: [mcpTool('clock', 'show', { view: VIEW }), mcpTool('clock', 'reset', { kind: 'mutate', handler: ran })], doorApprovals: withAppApprovals() });
    const access = createMcpAppAccess(host, { approvalWaitMs: 30 });
    const alice = { user: 'alice' };
    await host.invoke(alice, { threadId: 't', capability: 'clock.show', args: {} });
    const id = cardOf(await host.events.read({ user: 'alice', space: 'default', id: 't' }));
    const late = await access.call(alice, { threadId: 't', invocationId: id, name: 'reset', session: 's' });
    expect(late.result.content).toEqual([{ type: 'text', text: "reset (clock) waits for your approval in the chat, so it was not run. Once you approve, the app's calls of it run." }]);
    const row = (await host.events.read({ user: 'alice', space: 'default', id: 't' })).find((e) => e.type === 'approval.requested') as { approval_id: string };
    await host.decide(alice, { threadId: 't', id: row.approval_id, decision: 'approve' });
    expect(ran).not.toHaveBeenCalled();
    expect((await access.call(alice, { threadId: 't', invocationId: id, name: 'reset', session: 's' })).result.content).toEqual([{ type: 'text', text: 'reset ran' }]);
    expect(ran).toHaveBeenCalledTimes(1);
    // Another session of the same card asks again.
    const other = access.call(alice, { threadId: 't', invocationId: id, name: 'reset', session: 'other' });
    expect((await other).result.isError).toBe(true);
    expect((await host.events.read({ user: 'alice', space: 'default', id: 't' })).filter((e) => e.type === 'approval.requested')).toHaveLength(2);
  });
});
