import { useContext, useEffect, useState, type ComponentPropsWithRef } from 'react';
import { useOptionalChatSurface } from '../../hooks/context';
import { resultApp, type McpAppResource } from '../../runtime/mcpApp';
import { markAppCall, useAppCallOrigin } from '../mcp-app/appCalls';
import { deferred } from '../deferred/deferred';
import type { AppBridgeModule, McpAppFrameProps } from '../mcp-app/McpAppFrame';
import { InvocationCardDefaultsContext, useInvocationCard } from './context';

/** The frame's code loads the first time a card shows a view: pages that never see an MCP App do not carry it. */
const appFrame = deferred<McpAppFrameProps>(
  () => import('../mcp-app/McpAppFrame').then((m) => m.McpAppFrame),
  'McpAppFrame',
  <p data-part="mcp-app-loading">Loading the app view…</p>,
  'The app view',
);

/** Views the user closed, by invocation id: a card that mounts again (scrolled away and back) keeps its view closed. */
const closedViews = new Set<string>();

export interface InvocationCardAppProps extends ComponentPropsWithRef<'div'> {
  /** Tallest the view grows. @default 640 */
  maxHeight?: number;
  /** @default loads `@modelcontextprotocol/ext-apps/app-bridge` (for tests and stories) */
  loadBridge?: () => Promise<AppBridgeModule>;
}

/**
 * The MCP App of a finished invocation whose tool declares a `ui://` view:
 * read through the workspace (`readApp`), shown in a sandboxed frame, its
 * own tool calls run through the workspace (`callAppTool`) like a chip.
 * With apps turned off (`<InvocationCard.Defaults apps={false}>`) or a
 * workspace that cannot read views, a line says so and the result stays
 * plain text. A card that a view's own call added says so instead of showing
 * the view again. `data-state` is `loading`, `shown`, `off`, `error` or `from-app`.
 * @example
 * <InvocationCard.App maxHeight={360} />
 */
export function InvocationCardApp({ maxHeight, loadBridge, ...props }: InvocationCardAppProps) {
  const { row } = useInvocationCard('App');
  const { apps } = useContext(InvocationCardDefaultsContext);
  const surface = useOptionalChatSurface();
  const pointer = row.state === 'done' ? resultApp(row.result) : undefined;
  const workspace = surface?.workspace;
  const threadId = surface?.threadId;
  // A card that a view's own call added says so, instead of a second copy of the view.
  const fromApp = useAppCallOrigin(row.id);
  const canShow = Boolean(pointer && apps && workspace?.readApp && threadId && !fromApp);
  const [view, setView] = useState<{ id: string; resource?: McpAppResource; problem?: string } | null>(null);

  useEffect(() => {
    if (!canShow || !workspace?.readApp || !threadId) return undefined;
    let stale = false;
    setView({ id: row.id });
    workspace.readApp({ threadId, invocationId: row.id }).then(
      (resource) => !stale && setView({ id: row.id, resource }),
      (error: unknown) => !stale && setView({ id: row.id, problem: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      stale = true;
    };
  }, [canShow, workspace, threadId, row.id]);

  if (!pointer) return null;
  if (fromApp) {
    return (
      <div {...props} data-part="invocation-card-app" data-state="from-app">
        <p data-part="mcp-app-fallback">Called from inside an app view above; its result went back to the app.</p>
      </div>
    );
  }
  if (!canShow) {
    return (
      <div {...props} data-part="invocation-card-app" data-state="off">
        <p data-part="mcp-app-fallback">This tool has an interactive view; it is not shown here, so the result is plain text.</p>
      </div>
    );
  }
  const name = `${row.title} app`;
  if (!view?.resource) {
    return (
      <div {...props} data-part="invocation-card-app" data-state={view?.problem ? 'error' : 'loading'}>
        {view?.problem ? <p role="alert">The app view could not be loaded: {view.problem}</p> : <p data-part="mcp-app-loading">Loading the app view…</p>}
      </div>
    );
  }
  const call = workspace?.callAppTool;
  return (
    <div {...props} data-part="invocation-card-app" data-state="shown">
      <appFrame.Part
        view={view.resource}
        title={name}
        toolInput={isRecord(row.args) ? row.args : {}}
        {...(row.result ? { toolResult: row.result } : {})}
        {...(call && threadId
          ? {
              onCallTool: async (tool: string, args: Record<string, unknown>) => {
                const answer = await call({ threadId, invocationId: row.id, name: tool, arguments: args });
                if (answer.invocationId) markAppCall(answer.invocationId, row.id);
                return answer.result;
              },
            }
          : {})}
        {...(maxHeight !== undefined ? { maxHeight } : {})}
        {...(loadBridge ? { loadBridge } : {})}
        initiallyClosed={closedViews.has(row.id)}
        onOpenChange={(open) => (open ? closedViews.delete(row.id) : closedViews.add(row.id))}
      />
    </div>
  );
}
InvocationCardApp.displayName = 'InvocationCard.App';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
