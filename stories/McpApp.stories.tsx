import type { Meta, StoryObj } from '@storybook/react-vite';
// The package exports only its server; its built view is read by path.
import exampleView from '../node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/mcp-app.html?raw';
import { ChatSurface, InvocationCard, McpAppFrame, McpContentBlocks } from '../src';
import { textResult, type CapabilityResult, type InvocationRow, type McpAppResource } from '../src/runtime';
import { MCP_APP_META } from '../src/runtime/mcpApp';
import { storyWorkspace } from './fixtures';
import { scriptedStory } from './scripted';

/** The official example's view (`@modelcontextprotocol/server-basic-vanillajs`), as a workspace server would answer it. */
const view: McpAppResource = { uri: 'ui://get-time/mcp-app.html', server: 'clock', html: exampleView, csp: {}, permissions: [], problems: [] };
const fixedTime = '2026-12-01T16:00:00.000Z';
const timeResult: CapabilityResult = { ...textResult(fixedTime, { time: fixedTime }), _meta: { [MCP_APP_META]: { resourceUri: view.uri } } };
const row: InvocationRow = {
  kind: 'invocation',
  id: 'inv_get_time',
  capability: 'clock.get-time',
  title: 'Get Time',
  args: {},
  state: 'done',
  output: '',
  outputTruncated: false,
  startedAt: 0,
  endedAt: 40,
  result: timeResult,
};

type Reading = 'shown' | 'loading' | 'error';
function workspaceFor(reading: Reading) {
  const base = storyWorkspace();
  return {
    ...base,
    readApp: () =>
      reading === 'shown'
        ? Promise.resolve(view)
        : reading === 'loading'
          ? new Promise<McpAppResource>(() => undefined)
          : Promise.reject(new Error('The MCP server "clock" is unavailable, so it could not read ui://get-time/mcp-app.html. Try again when it is back.')),
    // The app's own "Get Server Time": answered here as the workspace server would (inside the card: no card of its own).
    callAppTool: async () => ({ result: textResult('2026-12-01T16:00:05.000Z', { time: '2026-12-01T16:00:05.000Z' }) }),
  };
}

const meta = {
  title: 'MCP Apps',
  render: ({ reading, apps }) => (
    <ChatSurface.Root workspace={workspaceFor(reading)} theme="light">
      <InvocationCard.Defaults apps={apps}>
        <InvocationCard row={row} />
      </InvocationCard.Defaults>
    </ChatSurface.Root>
  ),
} satisfies Meta<{ reading: Reading; apps: boolean }>;
export default meta;
type Story = StoryObj<{ reading: Reading; apps: boolean }>;

/** A tool with a `ui://` view: the official example app in a sandboxed frame, its result delivered, its own button calling back through the workspace. */
export const AppShown: Story = { args: { reading: 'shown', apps: true } };
/** The workspace is still reading the view from the MCP server. */
export const AppLoading: Story = { args: { reading: 'loading', apps: true } };
/** The view could not be read: the card says why, and keeps its plain result. */
export const AppUnavailable: Story = { args: { reading: 'error', apps: true } };
/** The host turned apps off (`<InvocationCard.Defaults apps={false}>`): plain text, and a line that says so. */
export const AppsOff: Story = { args: { reading: 'shown', apps: false } };

/** The frame while the host side of the protocol loads (lazily, on first use). */
export const FrameConnecting: StoryObj = {
  render: () => (
    <ChatSurface.Root workspace={storyWorkspace()} theme="light">
      <McpAppFrame view={view} title="Get Time app" loadBridge={() => new Promise(() => undefined)} />
    </ChatSurface.Root>
  ),
};
/** The user closed the view: it is torn down, and can be opened again. */
export const FrameClosed: StoryObj = {
  render: () => (
    <ChatSurface.Root workspace={storyWorkspace()} theme="light">
      <McpAppFrame view={view} title="Get Time app" initiallyClosed />
    </ChatSurface.Root>
  ),
};

/**
 * The app's own call of a tool that is not read-only asked once for its session (one approval row,
 * not one per call); approved, its calls run inside its card, and the row says so.
 */
export const AppSessionApproved: StoryObj = {
  render: () => (
    <div style={{ height: 560 }}>
      <ChatSurface
        theme="light"
        workspace={scriptedStory([
          { type: 'capability.started', invocation_id: 'inv_monitor', capability: 'monitor.get-system-info', title: 'Get System Info (monitor)', args: {} },
          { type: 'capability.done', invocation_id: 'inv_monitor', result: { content: [{ type: 'text', text: 'host: build-7, 8 cores' }] } },
          {
            type: 'approval.requested',
            approval_id: 'appapproval_story00001',
            capability: 'monitor.poll-system-stats',
            title: 'Poll System Stats (monitor)',
            args: {},
            reason: 'The Get System Info (monitor) app asks to run Poll System Stats (monitor) from inside its card. Approved, the app may run it again without asking until it is closed; nothing it runs is added to the chat.',
          },
          { type: 'approval.resolved', approval_id: 'appapproval_story00001', decision: 'approved' },
        ])}
      />
    </div>
  ),
};

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAAKElEQVR42mNkYPhfz0AEYBxVSF+FjP///2cgRjHjqEL6KmQkVjHjqEIAQmkO/8vVb6wAAAAASUVORK5CYII=';
/** Image, audio, resource-link and embedded-resource blocks of an MCP result, as such; an unsafe block says why it is not shown. */
export const ContentBlocks: StoryObj = {
  render: () => (
    <ChatSurface.Root workspace={storyWorkspace()} theme="light">
      <McpContentBlocks
        title="Sales chart"
        blocks={[
          { type: 'image', data: PNG, mimeType: 'image/png', _meta: { alt: 'A blue square: the sales chart placeholder' } },
          { type: 'audio', data: 'SUQzBAAAAAAAI1RTU0UAAAAPAAADTGF2ZjU4Ljc2LjEwMAAAAAAAAAAAAAAA', mimeType: 'audio/mpeg' },
          { type: 'resource_link', uri: 'https://example.com/reports/q4.pdf', name: 'q4.pdf', title: 'Q4 report', description: 'The full quarterly report.' },
          { type: 'resource', resource: { uri: 'file:///notes/summary.md', mimeType: 'text/markdown', text: 'Sales grew 12% in Q4.' } },
          { type: 'image', data: 'PHN2Zz48L3N2Zz4=', mimeType: 'image/svg+xml' },
        ]}
      />
    </ChatSurface.Root>
  ),
};
