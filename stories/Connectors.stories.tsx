import type { Meta, StoryObj } from '@storybook/react-vite';
import { ChatSurface, Composer, EnsureQueryClient, Slash, createLocalWorkspace, type WorkspaceAdapter } from '../src';
import { ConnectorForm } from '../src/components/connectors/ConnectorForm';
import { createOfflineDriver } from '../src/runtime';
import type { ConnectorsApi, ConnectorInfo } from '../src/workspace/connectorsProtocol';

type Args = { workspace: WorkspaceAdapter };

/** The surface with `/mcp` already run: the panel of the user's own MCP servers above the composer. */
function ConnectorsSurface({ workspace }: Args) {
  return (
    <div style={{ height: 620, paddingTop: 360 }}>
      <EnsureQueryClient>
        <ChatSurface.Root workspace={workspace} theme="light">
          <Slash.Root defaultPanel={{ kind: 'connectors', skill: '/mcp' }}>
            <ChatSurface.Transcript />
            <Slash.Panels />
            <Composer.Root>
              <Composer.Input />
              <Composer.Send />
            </Composer.Root>
          </Slash.Root>
        </ChatSurface.Root>
      </EnsureQueryClient>
    </div>
  );
}

// The title keeps the story ids (mcpservers--…) that e2e/stories.spec.ts and existing links visit.
const meta = { title: 'McpServers', render: (args) => <ConnectorsSurface {...args} /> } satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

const base = () => createLocalWorkspace({ capabilities: [], driver: createOfflineDriver({ delayMs: 0 }), now: () => 1_700_000_000_000 });
/** A local workspace whose server side of `/v1/mcp-servers` is `api` (what a remote workspace gets from the server). */
const withServers = (api: Partial<ConnectorsApi>): WorkspaceAdapter =>
  Object.assign(base(), {
    connectors: {
      list: async () => [],
      connect: async () => Promise.reject(new Error('not in this story')),
      disconnect: async () => undefined,
      ...api,
    } satisfies ConnectorsApi,
  });

const notes: ConnectorInfo = {
  label: 'notes',
  url: 'https://notes.example.com/mcp',
  hasToken: true,
  status: 'connected',
  tools: [
    { name: 'notes.search', title: 'Search notes (notes)', kind: 'read', needsApproval: false },
    { name: 'notes.add', title: 'Add a note (notes)', kind: 'mutate', needsApproval: true },
  ],
  problems: [],
};
const crm: ConnectorInfo = {
  label: 'crm',
  url: 'https://crm.example.com/mcp',
  hasToken: false,
  status: 'unavailable',
  tools: [],
  problems: ['Could not reach https://crm.example.com/mcp: nothing is listening there. Check the address, and that the server is running.'],
};

/** No server yet: the empty list and the connect form (name, URL, token in a password field). */
export const Empty: Story = { args: { workspace: withServers({}) } };

/** Two servers: one connected with its tools (the one that changes things asks first), one that could not be reached, saying why. */
export const Connected: Story = { args: { workspace: withServers({ list: async () => [notes, crm] }) } };

/** The list is on its way. */
export const Loading: Story = { args: { workspace: withServers({ list: () => new Promise<never>(() => {}) }) } };

/** The list could not be loaded: the panel says why; the form still works. */
export const LoadFailed: Story = { args: { workspace: withServers({ list: () => Promise.reject(new Error('The workspace server answered 503.')) }) } };

/** A workspace that does not take users' own servers: `/mcp` says so. */
export const NotOffered: Story = { args: { workspace: base() } };

/** The form after a refusal: the reason in plain words, what was typed kept (the token field is always cleared). */
export const ConnectRefused: StoryObj<{ message: string }> = {
  render: ({ message }) => (
    <div data-chat-surface="" style={{ padding: 16 }}>
      <ConnectorForm onConnect={() => Promise.reject(new Error(message))} defaultError={`Not connected: ${message}`} />
    </div>
  ),
  args: { message: 'https://notes.example.com/mcp refused the token (401); check it, or make a new one on that server.' },
};
