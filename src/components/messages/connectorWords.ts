import { plural } from './plural';

/** A message from a thrown reason: the Error's message, else the value as text. */
type Reason = string;

// The English words of the user's own MCP servers (the `/mcp` panel, issues 17 and 44), kept apart
// from defaults.ts only for its length; they are `defaultMessages.connectors`.

export const connectorWords = {
  /** The `/mcp` panel: the user's own MCP servers. */
  title: 'Your MCP servers',
  description: 'Their tools join your chats here, named after the server; only you see them. Tools that change things ask for your approval first.',
  loading: 'Loading your servers…',
  notLoaded: (reason: Reason) => `Your MCP servers could not be loaded: ${reason}`,
  notTaken: (skill: string) => `${skill}: this workspace does not take your own MCP servers.`,
  list: 'Connected MCP servers',
  empty: 'You have not connected any MCP server yet.',
  connected: (label: string, tools: number) => `Connected ${label}: ${tools} ${tools === 1 ? 'tool' : 'tools'} in your chats now.`,
  disconnected: (label: string) => `Disconnected ${label}; its tools are gone from your chats.`,
  close: 'Close',
  statusConnected: 'Connected',
  statusUnavailable: 'Unavailable',
  problemsOf: (label: string) => `Problems of ${label}`,
  tools: plural('en', { one: '# tool', other: '# tools' }),
  toolsOf: (label: string) => `Tools of ${label}`,
  asksFirst: ' · asks first',
  disconnect: 'Disconnect',
  disconnecting: 'Disconnecting…',
  disconnectLabel: (label: string) => `Disconnect ${label}`,
  disconnectFailed: (label: string, reason: Reason) => `Could not disconnect ${label}: ${reason}`,
  form: 'Connect an MCP server',
  name: 'Name',
  namePlaceholder: 'notes',
  url: 'Server URL',
  token: 'Token (optional)',
  connect: 'Connect',
  connecting: 'Connecting…',
  notConnected: (reason: Reason) => `Not connected: ${reason}`,
  statusNeedsAuth: 'Needs you to sign in',
  signIn: 'Sign in',
  signInLabel: (label: string) => `Sign in to ${label}`,
  signingIn: (label: string) => `Waiting for you to sign in to ${label} in the pop-up window…`,
  signInBlocked: (label: string) => `The pop-up window was blocked. Sign in to ${label} in a new tab instead:`,
  signInLink: (label: string) => `Open the sign-in page of ${label}`,
  signInOpened: (label: string) => `${label} asks you to sign in on its own page.`,
  signedIn: (label: string, tools: number) => `Signed in to ${label}: ${tools} ${tools === 1 ? 'tool' : 'tools'} in your chats now.`,
  signInFailed: (label: string, reason: Reason) => `Could not start signing in to ${label}: ${reason}`,
};
