import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOfflineDriver } from '../../runtime/offlineDriver';
import { connectorsSkill } from '../../runtime/slash/connectorsSkill';
import { createLocalWorkspace } from '../../workspace/localWorkspace';
import type { ConnectMcpRequest, ConnectorsApi, ConnectorInfo } from '../../workspace/connectorsProtocol';
import type { WorkspaceAdapter } from '../../workspace/types';
import { ChatSurface } from '../chat-surface/ChatSurface';
import { stubTranscriptLayout, type LayoutStub } from '../testing/layout';

let layout: LayoutStub;
beforeEach(() => {
  layout = stubTranscriptLayout();
});
afterEach(() => layout.restore());

/** The server side of `/v1/mcp-servers`, in memory: refuses a label twice and a URL without "mcp", as the real one words it. */
function fakeServers() {
  const servers: ConnectorInfo[] = [];
  const sent: ConnectMcpRequest[] = [];
  const api: ConnectorsApi = {
    list: async () => servers.map((s) => ({ ...s })),
    async connect(request) {
      sent.push(request);
      if (servers.some((s) => s.label === request.label)) throw new Error(`You already have a server named "${request.label}"; disconnect it first or pick another name.`);
      if (!request.url.includes('mcp')) throw new Error(`${request.url} answered, but not as an MCP server (HTTP 200, text/html).`);
      const server: ConnectorInfo = {
        label: request.label,
        url: request.url,
        hasToken: request.token !== undefined,
        status: 'connected',
        tools: [{ name: `${request.label}.echo`, title: `Echo (${request.label})`, kind: 'read', needsApproval: false }],
        problems: [],
      };
      servers.push(server);
      return server;
    },
    async disconnect(label) {
      servers.splice(servers.findIndex((s) => s.label === label), 1);
    },
  };
  return { api, sent };
}

function setup(api?: ConnectorsApi) {
  const local = createLocalWorkspace({ capabilities: [], driver: createOfflineDriver({ delayMs: 0 }), skills: [connectorsSkill()] });
  const workspace: WorkspaceAdapter = api ? Object.assign(local, { connectors: api }) : local;
  render(<ChatSurface workspace={workspace} theme="light" />);
  return { input: screen.getByRole('textbox', { name: 'Message' }), user: userEvent.setup() };
}

async function openPanel(input: HTMLElement, user: ReturnType<typeof userEvent.setup>) {
  await user.click(input);
  await user.keyboard('/mcp');
  // The slash list is open on the draft: Escape closes it, Enter then sends the command.
  await user.keyboard('{Escape}{Enter}');
  const panel = await screen.findByRole('dialog', { name: 'Your MCP servers' });
  await waitFor(() => expect(panel).toHaveAttribute('data-state', 'ready'));
  return panel;
}

describe('/mcp: the user\'s own MCP servers', () => {
  it('connects a server with a token typed in a password field, clears it, lists the server and disconnects it', async () => {
    const { api, sent } = fakeServers();
    const { input, user } = setup(api);
    const panel = await openPanel(input, user);
    expect(within(panel).getByText('You have not connected any MCP server yet.')).toBeInTheDocument();
    const form = within(panel).getByRole('form', { name: 'Connect an MCP server' });
    await user.type(within(form).getByRole('textbox', { name: 'Name' }), 'notes');
    await user.type(within(form).getByRole('textbox', { name: 'Server URL' }), 'https://notes.example.com/mcp');
    const token = within(form).getByLabelText('Token (optional)');
    expect(token).toHaveAttribute('type', 'password');
    await user.type(token, 's3cret');
    await user.click(within(form).getByRole('button', { name: 'Connect' }));

    await waitFor(() => expect(within(panel).getByRole('listitem', { name: 'notes' })).toHaveAttribute('data-state', 'connected'));
    expect(sent).toEqual([{ label: 'notes', url: 'https://notes.example.com/mcp', token: 's3cret' }]);
    expect(token).toHaveValue('');
    expect(within(panel).getByText('Connected notes: 1 tool in your chats now.')).toBeInTheDocument();
    // The transcript never got the token.
    expect(document.body.textContent).not.toContain('s3cret');

    await user.click(within(panel).getByRole('button', { name: 'Disconnect notes' }));
    await waitFor(() => expect(within(panel).queryByRole('listitem', { name: 'notes' })).toBeNull());
    expect(within(panel).getByText('Disconnected notes; its tools are gone from your chats.')).toBeInTheDocument();
  });

  it('shows a refusal in words, keeps what was typed but the token, and stores nothing', async () => {
    const { api } = fakeServers();
    const { input, user } = setup(api);
    const panel = await openPanel(input, user);
    const form = within(panel).getByRole('form', { name: 'Connect an MCP server' });
    await user.type(within(form).getByRole('textbox', { name: 'Name' }), 'page');
    await user.type(within(form).getByRole('textbox', { name: 'Server URL' }), 'https://example.com/');
    await user.type(within(form).getByLabelText('Token (optional)'), 'abc');
    await user.click(within(form).getByRole('button', { name: 'Connect' }));
    await waitFor(() => expect(form).toHaveAttribute('data-state', 'error'));
    expect(within(form).getByRole('alert')).toHaveTextContent('Not connected: https://example.com/ answered, but not as an MCP server (HTTP 200, text/html).');
    expect(within(form).getByRole('textbox', { name: 'Name' })).toHaveValue('page');
    expect(within(form).getByLabelText('Token (optional)')).toHaveValue('');
    expect(within(panel).getByText('You have not connected any MCP server yet.')).toBeInTheDocument();
  });

  it('on a workspace that does not take them, /mcp says so instead of opening a form', async () => {
    const { input, user } = setup();
    await user.click(input);
    await user.keyboard('/mcp');
    await user.keyboard('{Escape}{Enter}');
    expect(await screen.findByText('/mcp: this workspace does not take your own MCP servers.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Your MCP servers' })).toBeNull();
  });
});
