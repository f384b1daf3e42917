import { useEffect, useRef, useState, type ComponentPropsWithRef } from 'react';
import type { CapabilityResult } from '../../runtime/envelope';
import { createId } from '../../runtime/ids';
import { isMissingModule, MissingPeerError } from '../../runtime/peers';
import type { McpAppResource } from '../../runtime/mcpApp';
import { APP_FRAME_READY, APP_FRAME_VIEW, appFrameQuery } from '../../runtime/mcpAppFrame';
import { appSrcdoc } from './appDocument';
import { useMessages } from '../messages/context';

/**
 * What the frame needs of `@modelcontextprotocol/ext-apps/app-bridge` (loaded only when a view is
 * shown): its `AppBridge` and `PostMessageTransport` classes, or stand-ins of the same shape (tests,
 * stories). Written loosely here, so the kit's published types do not name that optional package: a
 * page without it type-checks without `skipLibCheck`. The frame uses them as the package types them.
 */
export interface AppBridgeModule {
  AppBridge: new (...args: never[]) => unknown;
  PostMessageTransport: new (...args: never[]) => unknown;
}

/** The package's own types for the same two classes (used inside the frame only; not in its published types). */
type AppBridgePackage = Pick<typeof import('@modelcontextprotocol/ext-apps/app-bridge'), 'AppBridge' | 'PostMessageTransport'>;

/** Loads the host side of MCP Apps on first use, so a page that never shows a view never downloads it. */
export const loadAppBridge = (): Promise<AppBridgeModule> =>
  import('@modelcontextprotocol/ext-apps/app-bridge').catch((error: unknown) => {
    throw isMissingModule(error, '@modelcontextprotocol/ext-apps') ? new MissingPeerError('@modelcontextprotocol/ext-apps', error) : error;
  });

export type McpAppFrameState = 'connecting' | 'ready' | 'closing' | 'closed' | 'error';

export interface McpAppFrameProps extends Omit<ComponentPropsWithRef<'div'>, 'title' | 'children'> {
  /** The view, as the workspace read it. */
  view: McpAppResource;
  /** The frame's accessible name, e.g. "Get Time app". */
  title: string;
  /** The tool call's arguments, delivered once the view is ready. */
  toolInput?: Record<string, unknown>;
  /** The tool's result, delivered after the input. */
  toolResult?: CapabilityResult;
  /**
   * Runs a tool the view calls (`tools/call`); without it the view's calls are refused. `session`
   * names this run of the view (a new one each time it is opened), so a host can ask for approval
   * once per app session.
   */
  onCallTool?: (name: string, args: Record<string, unknown>, context: { session: string }) => Promise<CapabilityResult>;
  /** Tallest the frame grows when the view asks for more. @default 640 */
  maxHeight?: number;
  /** Height before the view says its size. @default 120 */
  initialHeight?: number;
  /** @default loads `@modelcontextprotocol/ext-apps/app-bridge` */
  loadBridge?: () => Promise<AppBridgeModule>;
  /** Start closed (the user closed this view before the frame was last mounted). @default false */
  initiallyClosed?: boolean;
  /** Called when the user closes (`false`) or reopens (`true`) the view, so a host can remember it across remounts. */
  onOpenChange?: (open: boolean) => void;
}

const MIN_HEIGHT = 32;
/** How long the served frame document may take to say it listens. */
const FRAME_READY_MS = 15_000;

/** Loads the served frame document (`view.frame`, with the view's declared origins in its query) and waits until it listens. */
function loadFrameDocument(iframe: HTMLIFrameElement, frame: string, csp: McpAppResource['csp'], signal: { cancelled: boolean }): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (error?: Error) => {
      window.removeEventListener('message', hear);
      clearTimeout(timer);
      if (error) reject(error);
      else resolve();
    };
    const hear = (event: MessageEvent) => {
      if (event.source === iframe.contentWindow && (event.data as { type?: unknown } | null)?.type === APP_FRAME_READY) done();
    };
    const timer = setTimeout(() => !signal.cancelled && done(new Error(`its frame document (${frame}) did not load`)), FRAME_READY_MS);
    window.addEventListener('message', hear);
    const query = appFrameQuery(csp);
    iframe.src = query ? `${frame}${frame.includes('?') ? '&' : '?'}${query}` : frame;
  });
}

/**
 * An MCP App's view in a sandboxed frame: `sandbox="allow-scripts"` without
 * `allow-same-origin` (an opaque origin: no access to the page's DOM,
 * cookies or storage), a no-network policy unless the view declared origins,
 * in the frame document the workspace serves (`view.frame`: its headers also
 * stop WebRTC and navigation to undeclared origins) or, without one, inline,
 * and the host side of the Apps protocol (`ui/initialize`, tool input and
 * result, `tools/call` back through `onCallTool`, size changes within
 * `maxHeight`, teardown). "Close" tears the view down; unmounting does too.
 * `data-state` is `connecting`, `ready`, `closing`, `closed` or `error`.
 * @example
 * <McpAppFrame view={view} title="Get Time app" toolResult={row.result} onCallTool={(name, args) => call(name, args)} />
 */
export function McpAppFrame({
  view: resource,
  title,
  toolInput,
  toolResult,
  onCallTool,
  maxHeight = 640,
  initialHeight = 120,
  loadBridge = loadAppBridge,
  initiallyClosed = false,
  onOpenChange,
  ...props
}: McpAppFrameProps) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [state, setState] = useState<McpAppFrameState>(initiallyClosed ? 'closed' : 'connecting');
  const [problem, setProblem] = useState<string | null>(null);
  const [height, setHeight] = useState(initialHeight);
  const [generation, setGeneration] = useState(0);
  const teardown = useRef<(() => Promise<void>) | null>(null);
  // The latest callbacks and data, read by the bridge's handlers without reconnecting.
  const latest = useRef({ toolInput, toolResult, onCallTool, maxHeight });
  latest.current = { toolInput, toolResult, onCallTool, maxHeight };
  const openChange = useRef(onOpenChange);
  openChange.current = onOpenChange;

  useEffect(() => {
    if (state === 'closed') return undefined;
    let cancelled = false;
    let bridge: InstanceType<AppBridgePackage['AppBridge']> | null = null;
    const iframe = frame.current;
    const signal = { get cancelled() { return cancelled; } };
    // This run of the view: its calls name it, and a tool that needs approval asks once per run.
    const session = createId('appsession');
    setState('connecting');
    (async () => {
      // A served frame document first (its headers hold the view); the bridge listens once it does.
      if (resource.frame && iframe) await loadFrameDocument(iframe, resource.frame, resource.csp, signal);
      // The module is the package (or a stand-in of its shape): used with the package's types.
      const { AppBridge, PostMessageTransport } = (await loadBridge()) as AppBridgePackage;
      if (cancelled || !iframe?.contentWindow) return;
      bridge = new AppBridge(
        null,
        { name: 'ChatSurface', version: '0.1.0' },
        { serverTools: {}, openLinks: {}, logging: {} },
        { hostContext: { theme: 'light', displayMode: 'inline', availableDisplayModes: ['inline'], containerDimensions: { maxHeight: latest.current.maxHeight } } },
      );
      const b = bridge;
      b.oninitialized = () => {
        if (cancelled) return;
        const { toolInput: input, toolResult: result } = latest.current;
        void (async () => {
          await b.sendToolInput({ arguments: input ?? {} });
          if (result) await b.sendToolResult(result as Parameters<typeof b.sendToolResult>[0]);
          if (!cancelled) setState('ready');
        })().catch((error) => fail(error));
      };
      b.onsizechange = ({ height: asked }) => {
        if (typeof asked === 'number' && Number.isFinite(asked)) setHeight(Math.max(MIN_HEIGHT, Math.min(Math.ceil(asked), latest.current.maxHeight)));
      };
      b.oncalltool = async (params) => {
        const call = latest.current.onCallTool;
        if (!call) return { content: [{ type: 'text', text: 'This host does not run tools for apps.' }], isError: true };
        return (await call(params.name, (params.arguments ?? {}) as Record<string, unknown>, { session })) as Awaited<ReturnType<NonNullable<typeof b.oncalltool>>>;
      };
      b.onopenlink = async ({ url }) => {
        if (!/^https:\/\//i.test(url)) return { isError: true };
        window.open(url, '_blank', 'noopener,noreferrer');
        return {};
      };
      b.onmessage = async () => ({ isError: true });
      b.onloggingmessage = () => undefined;
      b.onrequestteardown = () => void close();
      await b.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
      if (cancelled) return;
      // Only now the view loads: its ui/initialize cannot arrive before the bridge listens.
      const html = appSrcdoc(resource.html, resource.csp);
      // The frame document's origin is opaque ("null"), so no narrower target can be named; it takes this from its parent only, once.
      if (resource.frame) iframe.contentWindow.postMessage({ type: APP_FRAME_VIEW, html }, '*');
      else iframe.srcdoc = html;
    })().catch((error) => fail(error));

    function fail(error: unknown) {
      if (cancelled) return;
      setProblem(error instanceof Error ? error.message : String(error));
      setState('error');
    }
    const end = async () => {
      const b = bridge;
      bridge = null;
      if (!b) return;
      await Promise.race([b.teardownResource({}).catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 1_000))]);
      await b.close().catch(() => undefined);
    };
    teardown.current = end;
    return () => {
      cancelled = true;
      teardown.current = null;
      void end();
    };
    // A new view or a reopen reconnects; callbacks are read through `latest`.
  }, [resource.html, resource.csp, resource.frame, generation, state === 'closed']);

  async function close() {
    const end = teardown.current;
    openChange.current?.(false);
    setState('closing');
    await end?.();
    setState('closed');
  }

  const bordered = resource.prefersBorder !== false;
  const m = useMessages().app;
  return (
    <div {...props} data-part="mcp-app" data-state={state} data-bordered={bordered || undefined}>
      {state === 'closed' ? (
        <p data-part="mcp-app-closed">
          {m.closed}{' '}
          <button type="button" onClick={() => (openChange.current?.(true), setGeneration((g) => g + 1), setState('connecting'))}>
            {m.open(title)}
          </button>
        </p>
      ) : (
        <>
          <iframe
            key={generation}
            ref={frame}
            title={title}
            sandbox="allow-scripts"
            referrerPolicy="no-referrer"
            allow=""
            style={{ height }}
            data-part="mcp-app-frame"
            data-state={state}
          />
          <div data-part="mcp-app-bar">
            {state === 'error' ? <p role="alert">{m.notStarted(problem ?? '')}</p> : null}
            <button type="button" onClick={() => void close()} disabled={state === 'closing'}>
              {m.close(title)}
            </button>
          </div>
        </>
      )}
    </div>
  );
}
McpAppFrame.displayName = 'McpAppFrame';
