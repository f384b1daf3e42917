import type { Meta, StoryObj } from '@storybook/react-vite';
import { ChatSurface, Composer, EnsureQueryClient, Slash, createLocalWorkspace, type WorkspaceAdapter } from '../src';
import { createOfflineDriver } from '../src/runtime';
import type { ConnectorInfo, ConnectorsApi } from '../src/workspace/connectorsProtocol';
import { ConnectorItem } from '../src/components/connectors/ConnectorItem';
import type { SignInState } from '../src/components/connectors/useSignIns';

type Args = { workspace: WorkspaceAdapter; server?: ConnectorInfo; signIn?: SignInState };

const base = () => createLocalWorkspace({ capabilities: [], driver: createOfflineDriver({ delayMs: 0 }), now: () => 1_700_000_000_000 });

/** The surface with `/mcp` already run, or (given `server`) one item of the list in a sign-in state the page holds. */
function SignInSurface({ workspace, server, signIn }: Args) {
  return (
    <div style={{ height: 620, paddingTop: 360 }}>
      <EnsureQueryClient>
        <ChatSurface.Root workspace={workspace} theme="light">
          {server ? (
            <ul data-part="mcp-servers-list" aria-label="Connected MCP servers">
              <ConnectorItem server={server} signIn={signIn} onSignIn={() => undefined} onDisconnect={async () => undefined} />
            </ul>
          ) : (
            <Slash.Root defaultPanel={{ kind: 'connectors', skill: '/mcp' }}>
              <ChatSurface.Transcript />
              <Slash.Panels />
              <Composer.Root>
                <Composer.Input />
                <Composer.Send />
              </Composer.Root>
            </Slash.Root>
          )}
        </ChatSurface.Root>
      </EnsureQueryClient>
    </div>
  );
}

const meta = { title: 'McpServers/SignIn', render: (args) => <SignInSurface {...args} /> } satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

const withServers = (servers: ConnectorInfo[]): WorkspaceAdapter =>
  Object.assign(base(), {
    connectors: {
      list: async () => servers,
      connect: async () => Promise.reject(new Error('not in this story')),
      disconnect: async () => undefined,
      authorize: () => new Promise<never>(() => {}),
    } satisfies ConnectorsApi,
  });

const journal: ConnectorInfo = {
  label: 'journal',
  url: 'https://journal.example.com/mcp',
  hasToken: true,
  signIn: 'oauth',
  status: 'needs_auth',
  tools: [],
  problems: ['journal needs you to sign in on its own page before its tools can be used. Choose "Sign in" next to it.'],
};
const expired: ConnectorInfo = {
  ...journal,
  problems: ['journal needs you to sign in again: its sign-in server refused to renew it (invalid_grant). Choose "Sign in" next to it.'],
};

/** Just connected, an OAuth server waits for its user: it says so and offers Sign in. */
export const NeedsSignIn: Story = { args: { workspace: withServers([journal]) } };

/** The sign-in ran out and could not be renewed: the server says so in plain words, with Sign in. */
export const SignInAgain: Story = { args: { workspace: withServers([expired]) } };

/** The pop-up is open: the item waits for the user to sign in there. */
export const SigningIn: Story = { args: { workspace: base(), server: journal, signIn: { state: 'waiting' } } };

/** The browser blocked the pop-up: the sign-in page is a link instead (a new tab). */
export const PopupBlocked: Story = {
  args: { workspace: base(), server: journal, signIn: { state: 'blocked', url: 'https://auth.example.com/authorize?client_id=chatsurface&response_type=code' } },
};

/** The sign-in could not start: why, in words, beside the Sign in button. */
export const SignInFailed: Story = {
  args: { workspace: base(), server: journal, signIn: { state: 'failed', message: 'Could not start signing in to journal: The sign-in server https://auth.example.com refused to register this workspace.' } },
};
