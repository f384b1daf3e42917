import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { InvocationRow } from '../../runtime/fold';
import { MCP_APP_META, type McpAppResource } from '../../runtime/mcpApp';
import { ChatSurfaceRoot } from '../chat-surface/ChatSurfaceRoot';
import { markAppCall } from '../mcp-app/appCalls';
import type { AppBridgeModule } from '../mcp-app/McpAppFrame';
import { scriptedWorkspace } from '../testing/scriptedWorkspace';
import { InvocationCard } from './InvocationCard';

const row: InvocationRow = {
  kind: 'invocation',
  id: 'inv_time',
  capability: 'clock.get-time',
  title: 'Get Time',
  args: {},
  state: 'done',
  output: '',
  outputTruncated: false,
  startedAt: 0,
  result: { content: [{ type: 'text', text: '2026-12-01T16:00:00Z' }], _meta: { [MCP_APP_META]: { resourceUri: 'ui://get-time/mcp-app.html' } } },
};
const view: McpAppResource = { uri: 'ui://get-time/mcp-app.html', server: 'clock', html: '<p>time</p>', csp: {}, permissions: [], problems: [] };
const neverLoads = () => new Promise<AppBridgeModule>(() => undefined);

/** Renders the card; awaited in act, as React asks of parts that suspend (the view's code loads on first use). */
async function show(workspace: ReturnType<typeof scriptedWorkspace>, apps = true) {
  await act(async () => void render(
    <ChatSurfaceRoot workspace={workspace}>
      <InvocationCard.Defaults apps={apps}>
        <InvocationCard.Root row={row}>
          <InvocationCard.Title />
          <InvocationCard.Result />
          <InvocationCard.App loadBridge={neverLoads} />
        </InvocationCard.Root>
      </InvocationCard.Defaults>
    </ChatSurfaceRoot>,
  ));
  return screen.getByRole('article', { name: 'Get Time' });
}

describe('<InvocationCard.App>', () => {
  it('reads the view of this invocation through the workspace and shows it in a named frame', async () => {
    const workspace = scriptedWorkspace();
    const readApp = vi.fn(async () => view);
    workspace.readApp = readApp;
    const card = await show(workspace);
    expect(card.querySelector('[data-part="invocation-card-app"]')).toHaveAttribute('data-state', 'loading');
    expect(await screen.findByTitle('Get Time app')).toHaveAttribute('sandbox', 'allow-scripts');
    expect(readApp).toHaveBeenCalledWith({ threadId: expect.any(String), invocationId: 'inv_time' });
    expect(card.querySelector('[data-part="invocation-card-app"]')).toHaveAttribute('data-state', 'shown');
  });

  it('apps turned off: no frame, a line says so, the result stays plain text', async () => {
    const workspace = scriptedWorkspace();
    const readApp = vi.fn(async () => view);
    workspace.readApp = readApp;
    const card = await show(workspace, false);
    expect(screen.queryByTitle('Get Time app')).toBeNull();
    expect(card.querySelector('[data-part="invocation-card-app"]')).toHaveAttribute('data-state', 'off');
    expect(card).toHaveTextContent('This tool has an interactive view; it is not shown here');
    expect(card).toHaveTextContent('2026-12-01T16:00:00Z');
    expect(readApp).not.toHaveBeenCalled();
  });

  it('a workspace that cannot read views falls back the same way; a view that fails says why', async () => {
    const plain = scriptedWorkspace();
    const card = await show(plain);
    expect(card.querySelector('[data-part="invocation-card-app"]')).toHaveAttribute('data-state', 'off');
  });

  it('a view that cannot be read says why, in words', async () => {
    const workspace = scriptedWorkspace();
    workspace.readApp = async () => {
      throw new Error('The view ui://get-time/mcp-app.html of "clock" is application/javascript, not HTML.');
    };
    await show(workspace);
    expect(await screen.findByRole('alert')).toHaveTextContent('The app view could not be loaded: The view ui://get-time/mcp-app.html of "clock" is application/javascript, not HTML.');
  });

  it('a card that a view’s own call added says so and shows no second view, even once the frame was up', async () => {
    const workspace = scriptedWorkspace();
    workspace.readApp = async () => view;
    const card = await show(workspace);
    expect(await screen.findByTitle('Get Time app')).toBeInTheDocument();
    act(() => markAppCall('inv_time', 'inv_earlier'));
    expect(screen.queryByTitle('Get Time app')).toBeNull();
    expect(card.querySelector('[data-part="invocation-card-app"]')).toHaveAttribute('data-state', 'from-app');
    expect(card).toHaveTextContent('Called from inside an app view above');
  });

  it('the view’s own calls go to the workspace for this card, naming the view’s session; the card stays the only one', async () => {
    const workspace = scriptedWorkspace();
    workspace.readApp = async () => view;
    const callAppTool = vi.fn(async () => ({ result: { content: [{ type: 'text' as const, text: 'stats' }] } }));
    workspace.callAppTool = callAppTool;
    let oncalltool: ((p: { name: string; arguments?: Record<string, unknown> }) => Promise<unknown>) | undefined;
    class Bridge {
      set oncalltool(handler: typeof oncalltool) {
        oncalltool = handler;
      }
      async connect() {}
      async teardownResource() {}
      async close() {}
    }
    const loadBridge = async () => ({ AppBridge: Bridge, PostMessageTransport: class {} }) as unknown as AppBridgeModule;
    await act(async () => void render(
      <ChatSurfaceRoot workspace={workspace}>
        <InvocationCard.Root row={{ ...row, id: 'inv_poll' }}>
          <InvocationCard.App loadBridge={loadBridge} />
        </InvocationCard.Root>
      </ChatSurfaceRoot>,
    ));
    await vi.waitFor(() => expect(oncalltool).toBeTypeOf('function'));
    await expect(oncalltool!({ name: 'poll-system-stats', arguments: {} })).resolves.toEqual({ content: [{ type: 'text', text: 'stats' }] });
    await oncalltool!({ name: 'poll-system-stats' });
    expect(callAppTool).toHaveBeenCalledTimes(2);
    const [first, second] = callAppTool.mock.calls as unknown as [{ session: string }][];
    expect(first![0]).toEqual({ threadId: expect.any(String), invocationId: 'inv_poll', name: 'poll-system-stats', arguments: {}, session: expect.stringMatching(/^appsession_/) });
    expect(second![0].session).toBe(first![0].session);
    expect(screen.getAllByRole('article')).toHaveLength(1);
  });

  it('a result without a view renders no app part', () => {
    const workspace = scriptedWorkspace();
    render(
      <ChatSurfaceRoot workspace={workspace}>
        <InvocationCard row={{ ...row, result: { content: [{ type: 'text', text: 'plain' }] } }} />
      </ChatSurfaceRoot>,
    );
    expect(document.querySelector('[data-part="invocation-card-app"]')).toBeNull();
  });
});
