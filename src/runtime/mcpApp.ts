import type { CapabilityResult } from './envelope';

/**
 * MCP Apps (the `io.modelcontextprotocol/ui` extension) on the consuming
 * side: which tools declare a `ui://` view, and what a view's resource is
 * once read and checked. Browser-safe: no DOM, no node:*.
 */

/** `_meta` key on a capability result whose tool has an MCP App view: `{ resourceUri }`. The HTML itself is never in the event log. */
export const MCP_APP_META = 'chatsurface/app';

/**
 * Approval rows an MCP App's own calls ask for (once per app session) carry ids that start so:
 * deciding one runs nothing in the thread, it lets that session's calls of the tool through.
 */
export const APP_APPROVAL_PREFIX = 'appapproval_';

/** The mime type MCP Apps serve their views with. */
export const MCP_APP_MIME = 'text/html;profile=mcp-app';

/** Largest view HTML the host accepts (bytes of UTF-8). */
export const MCP_APP_MAX_BYTES = 4 * 1024 * 1024;

/** Who may call a tool: the model, the app's view, or both (MCP Apps' `visibility`). */
export type McpToolVisibility = 'model' | 'app';

/** What a tool's `_meta.ui` says. */
export interface McpToolUi {
  resourceUri: string;
  /** @default ['model', 'app'] */
  visibility: McpToolVisibility[];
}

/** The origins a view declares it needs (MCP Apps' `McpUiResourceCsp`); each one checked. */
export interface McpAppCsp {
  /** fetch / XHR / WebSocket origins (`connect-src`). */
  connectDomains?: string[];
  /** Scripts, styles, images, fonts, media (`script-src`, `style-src`, `img-src`, `font-src`, `media-src`). */
  resourceDomains?: string[];
}

/** A view, read from its MCP server and checked: what the card's frame renders. */
export interface McpAppResource {
  /** The `ui://` uri. */
  uri: string;
  /** The MCP server (the connection's name) the view belongs to. */
  server: string;
  html: string;
  csp: McpAppCsp;
  /** Browser features the view asks for (`camera`, `microphone`, `geolocation`, `clipboardWrite`); granted only when the host allows them. */
  permissions: string[];
  /** The view wants the host to draw a border around it. */
  prefersBorder?: boolean;
  /** Declared origins the host refused, in words (not https, a wildcard host, …). */
  problems: string[];
  /**
   * The URL of a frame document served with the headers that hold the view (see runtime/mcpAppFrame:
   * no WebRTC, no navigation to an undeclared origin); the workspace server sets it. Without it the
   * view runs in an inline `srcdoc` frame, where those two cannot be stopped.
   */
  frame?: string;
}

/** The tool's view, when its `_meta.ui.resourceUri` (or the older flat `ui/resourceUri`) names a `ui://` resource. */
export function toolUi(tool: { _meta?: Record<string, unknown> | undefined }): McpToolUi | undefined {
  const meta = tool._meta ?? {};
  const ui = isRecord(meta.ui) ? meta.ui : {};
  const uri = typeof ui.resourceUri === 'string' ? ui.resourceUri : typeof meta['ui/resourceUri'] === 'string' ? (meta['ui/resourceUri'] as string) : undefined;
  if (!uri || !uri.startsWith('ui://')) return undefined;
  const declared = Array.isArray(ui.visibility) ? ui.visibility.filter((v): v is McpToolVisibility => v === 'model' || v === 'app') : [];
  return { resourceUri: uri, visibility: declared.length ? declared : ['model', 'app'] };
}

/**
 * Who may call a tool, when its `_meta.ui.visibility` says (MCP Apps), with or without a view of
 * its own: an app-only tool (`["app"]`, such as a polling app's stats tool) often names none.
 */
export function toolVisibility(tool: { _meta?: Record<string, unknown> | undefined }): McpToolVisibility[] | undefined {
  const ui = tool._meta?.ui;
  if (!isRecord(ui) || !Array.isArray(ui.visibility)) return undefined;
  const declared = ui.visibility.filter((v): v is McpToolVisibility => v === 'model' || v === 'app');
  return declared.length ? declared : undefined;
}

/** The view a result points at (`_meta['chatsurface/app']`), or undefined. */
export function resultApp(result: CapabilityResult | undefined): { resourceUri: string } | undefined {
  const app = result?._meta?.[MCP_APP_META];
  return isRecord(app) && typeof app.resourceUri === 'string' && app.resourceUri.startsWith('ui://') ? { resourceUri: app.resourceUri } : undefined;
}

/** A result with the pointer to its tool's view added (the HTML stays on the server). */
export function withAppPointer(result: CapabilityResult, resourceUri: string): CapabilityResult {
  return { ...result, _meta: { ...result._meta, [MCP_APP_META]: { resourceUri } } };
}

/** One `contents` entry of an MCP `resources/read` answer. */
export interface McpResourceContents {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
  _meta?: Record<string, unknown>;
}

/**
 * Checks a `resources/read` answer for a view and returns it, or throws an
 * Error whose message says what is wrong: no HTML, a mime type other than
 * `text/html`, too large. Declared CSP origins that are not plain
 * `https://`/`wss://` origins (or loopback http) are dropped and named in `problems`.
 */
export function appResourceOf(server: string, uri: string, contents: readonly McpResourceContents[]): McpAppResource {
  const entry = contents.find((c) => c.uri === uri) ?? contents[0];
  if (!entry) throw new Error(`The MCP server "${server}" returned nothing for the view ${uri}.`);
  const mime = (entry.mimeType ?? '').toLowerCase().replace(/\s+/g, '');
  if (mime && !mime.startsWith('text/html')) {
    throw new Error(`The view ${uri} of "${server}" is ${entry.mimeType}, not HTML (${MCP_APP_MIME}), so it is not shown.`);
  }
  const html = typeof entry.text === 'string' ? entry.text : typeof entry.blob === 'string' ? decodeBase64(entry.blob) : null;
  if (html === null || !html.trim()) throw new Error(`The view ${uri} of "${server}" has no HTML.`);
  const bytes = new TextEncoder().encode(html).length;
  if (bytes > MCP_APP_MAX_BYTES) {
    throw new Error(`The view ${uri} of "${server}" is ${(bytes / 1048576).toFixed(1)} MB, more than the ${MCP_APP_MAX_BYTES / 1048576} MB a card shows.`);
  }
  const ui = isRecord(entry._meta?.ui) ? entry._meta.ui : {};
  const problems: string[] = [];
  const declared = isRecord(ui.csp) ? ui.csp : {};
  const csp: McpAppCsp = {};
  for (const key of ['connectDomains', 'resourceDomains'] as const) {
    const list = Array.isArray(declared[key]) ? (declared[key] as unknown[]) : [];
    const kept: string[] = [];
    for (const origin of list) {
      if (typeof origin === 'string' && isAllowedOrigin(origin)) kept.push(origin);
      else problems.push(`The view asked for ${JSON.stringify(origin)} in ${key}, which is not an https:// or wss:// origin; it was left out.`);
    }
    if (kept.length) csp[key] = kept;
  }
  const permissions = isRecord(ui.permissions) ? Object.keys(ui.permissions).filter((p) => PERMISSIONS.has(p)) : [];
  const resource: McpAppResource = { uri, server, html, csp, permissions, problems };
  if (typeof ui.prefersBorder === 'boolean') resource.prefersBorder = ui.prefersBorder;
  return resource;
}

const PERMISSIONS = new Set(['camera', 'microphone', 'geolocation', 'clipboardWrite']);

/** `https://host[:port]`, `https://*.host`, `wss://…`, or loopback `http://127.0.0.1:port` / `http://localhost:port`; nothing else reaches a CSP. */
export function isAllowedOrigin(origin: string): boolean {
  if (/[\s;,'"]/.test(origin)) return false;
  const match = /^(https|wss|http|ws):\/\/(\*\.)?([A-Za-z0-9.-]+)(:\d{1,5})?\/?$/.exec(origin);
  if (!match) return false;
  const [, scheme, wildcard, host] = match;
  if (scheme === 'http' || scheme === 'ws') return !wildcard && (host === '127.0.0.1' || host === 'localhost');
  return host!.includes('.') || host === 'localhost';
}

function decodeBase64(blob: string): string | null {
  try {
    const binary = atob(blob);
    return new TextDecoder().decode(Uint8Array.from(binary, (ch) => ch.charCodeAt(0)));
  } catch {
    return null;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
