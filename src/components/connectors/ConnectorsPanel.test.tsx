import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
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

/** A server that signs users in with OAuth: connected as `needs_auth`, `connected` once `signedIn()` is called. */
function oauthServers(authorize: ConnectorsApi['authorize'] = async () => ({ url: 'https://auth.example.com/authorize?state=s1' })) {
  let signed = false;
  const journal = (): ConnectorInfo => ({
    label: 'journal',
    url: 'https://journal.example.com/mcp',
    hasToken: true,
    signIn: 'oauth',
    status: signed ? 'connected' : 'needs_auth',
    tools: signed ? [{ name: 'journal.count', title: 'Count (journal)', kind: 'read', needsApproval: false }] : [],
    problems: signed ? [] : ['journal needs you to sign in on its own page before its tools can be used. Choose "Sign in" next to it.'],
  });
  let connected = false;
  const api: ConnectorsApi = {
    list: async () => (connected ? [journal()] : []),
    connect: async () => {
      connected = true;
      return journal();
    },
    disconnect: async () => undefined,
    authorize,
  };
  return { api, signedIn: () => (signed = true) };
}

/** `window.open` answering a stand-in pop-up (or null: blocked). */
function stubPopup(blocked = false) {
  const popup = { closed: false, location: { href: '' }, close: vi.fn() };
  const open = vi.spyOn(window, 'open').mockImplementation(() => (blocked ? null : (popup as unknown as Window)));
  return { popup, open };
}

describe('/mcp: signing in to a server that uses OAuth', () => {
  afterEach(() => vi.restoreAllMocks());

  it('opens a pop-up in the click, sends it to the sign-in page, waits in words, and lists the server once signed in', async () => {
    const { api, signedIn } = oauthServers();
    const { popup, open } = stubPopup();
    const { input, user } = setup(api);
    const panel = await openPanel(input, user);
    const form = within(panel).getByRole('form', { name: 'Connect an MCP server' });
    await user.type(within(form).getByRole('textbox', { name: 'Name' }), 'journal');
    await user.type(within(form).getByRole('textbox', { name: 'Server URL' }), 'https://journal.example.com/mcp');
    await user.click(within(form).getByRole('button', { name: 'Connect' }));

    await waitFor(() => expect(popup.location.href).toBe('https://auth.example.com/authorize?state=s1'));
    expect(open).toHaveBeenCalledWith('', 'chatsurface-sign-in-journal', expect.stringContaining('popup'));
    const item = await within(panel).findByRole('listitem', { name: 'journal' });
    expect(item).toHaveAttribute('data-state', 'signing-in');
    expect(within(item).getByRole('status')).toHaveTextContent('Waiting for you to sign in to journal in the pop-up window…');
    expect(within(item).getByText('Needs you to sign in')).toBeInTheDocument();
    expect(within(panel).getByText('journal asks you to sign in on its own page.')).toBeInTheDocument();

    // The landing page finished it on the server: the panel sees it on its next read, closes the pop-up and says so.
    signedIn();
    await waitFor(() => expect(item).toHaveAttribute('data-state', 'connected'), { timeout: 5_000 });
    expect(await within(panel).findByText('Signed in to journal: 1 tool in your chats now.')).toBeInTheDocument();
    expect(popup.close).toHaveBeenCalled();
    expect(within(item).queryByRole('button', { name: 'Sign in to journal' })).toBeNull();
  });

  it('offers the sign-in page as a link when the pop-up is blocked, and says why when it cannot start', async () => {
    const { api } = oauthServers();
    stubPopup(true);
    const { input, user } = setup(api);
    const panel = await openPanel(input, user);
    const form = within(panel).getByRole('form', { name: 'Connect an MCP server' });
    await user.type(within(form).getByRole('textbox', { name: 'Name' }), 'journal');
    await user.type(within(form).getByRole('textbox', { name: 'Server URL' }), 'https://journal.example.com/mcp');
    await user.click(within(form).getByRole('button', { name: 'Connect' }));
    const link = await within(panel).findByRole('link', { name: 'Open the sign-in page of journal' });
    expect(link).toHaveAttribute('href', 'https://auth.example.com/authorize?state=s1');
    expect(link).toHaveAttribute('target', '_blank');
    expect(within(panel).getByText(/The pop-up window was blocked/)).toBeInTheDocument();
  });

  it('a server whose sign-in ran out offers Sign in; a refusal to start is shown in words and the pop-up closed', async () => {
    const { api } = oauthServers(async () => {
      throw new Error('The sign-in server https://auth.example.com refused to register this workspace.');
    });
    await api.connect({ label: 'journal', url: 'https://journal.example.com/mcp' });
    const { popup } = stubPopup();
    const { input, user } = setup(api);
    const panel = await openPanel(input, user);
    const item = within(panel).getByRole('listitem', { name: 'journal' });
    expect(item).toHaveAttribute('data-state', 'needs_auth');
    await user.click(within(item).getByRole('button', { name: 'Sign in to journal' }));
    expect(await within(item).findByRole('alert')).toHaveTextContent('Could not start signing in to journal: The sign-in server https://auth.example.com refused to register this workspace.');
    expect(popup.close).toHaveBeenCalled();
    expect(item).toHaveAttribute('data-state', 'needs_auth');
  });
});

describe('/mcp: a sign-in address that is not a web page', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is never opened, and the item says why', async () => {
    const { api } = oauthServers(async () => ({ url: 'javascript:alert(document.cookie)' }));
    await api.connect({ label: 'journal', url: 'https://journal.example.com/mcp' });
    const { popup } = stubPopup();
    const { input, user } = setup(api);
    const panel = await openPanel(input, user);
    const item = within(panel).getByRole('listitem', { name: 'journal' });
    await user.click(within(item).getByRole('button', { name: 'Sign in to journal' }));
    expect(await within(item).findByRole('alert')).toHaveTextContent('Could not start signing in to journal: the server answered a sign-in address that is not a web page');
    expect(popup.location.href).toBe('');
    expect(popup.close).toHaveBeenCalled();
  });
});

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
