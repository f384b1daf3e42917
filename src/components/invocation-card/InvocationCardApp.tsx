import { useContext, type ComponentPropsWithRef } from 'react';
import { useOptionalChatSurface } from '../../hooks/context';
import { resultApp } from '../../runtime/mcpApp';
import { markAppCall, useAppCallOrigin } from '../mcp-app/appCalls';
import { deferred } from '../deferred/deferred';
import type { AppBridgeModule } from '../mcp-app/McpAppFrame';
import type { InvocationCardAppViewProps } from './InvocationCardAppView';
import { InvocationCardDefaultsContext, useInvocationCard } from './context';
import { useMessages } from '../messages/context';

/**
 * The view's code (reading it, the sandboxed frame) loads the first time a card can show one,
 * in one chunk: pages that never see an MCP App do not carry it. Meanwhile the card says the view
 * is loading, as the view itself does until the workspace has read it.
 */
const appView = deferred<InvocationCardAppViewProps>(
  () => import('./InvocationCardAppView').then((m) => m.InvocationCardAppView),
  'InvocationCard.AppView',
  <AppViewLoading />,
  'appView',
);

export interface InvocationCardAppProps extends ComponentPropsWithRef<'div'> {
  /** Tallest the view grows. @default 640 */
  maxHeight?: number;
  /** @default loads `@modelcontextprotocol/ext-apps/app-bridge` (for tests and stories) */
  loadBridge?: () => Promise<AppBridgeModule>;
}

/**
 * The MCP App of a finished invocation whose tool declares a `ui://` view:
 * read through the workspace (`readApp`), shown in a sandboxed frame, its
 * own tool calls run through the workspace (`callAppTool`) inside this card:
 * no card per call, and a tool that needs approval asks once per app session.
 * With apps turned off (`<InvocationCard.Defaults apps={false}>`) or a
 * workspace that cannot read views, a line says so and the result stays
 * plain text. A card that a view's own call added (a workspace server before
 * issue 44 added one per call) says so instead of showing the view again.
 * `data-state` is `loading`, `shown`, `off`, `error` or `from-app`.
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
  const m = useMessages().app;

  if (!pointer) return null;
  if (fromApp) {
    return (
      <div {...props} data-part="invocation-card-app" data-state="from-app">
        <p data-part="mcp-app-fallback">{m.fromApp}</p>
      </div>
    );
  }
  if (!(apps && workspace?.readApp && threadId)) {
    return (
      <div {...props} data-part="invocation-card-app" data-state="off">
        <p data-part="mcp-app-fallback">{m.off}</p>
      </div>
    );
  }
  return (
    <appView.Part
      {...props}
      row={row}
      workspace={workspace}
      threadId={threadId}
      onAppCall={markAppCall}
      {...(maxHeight !== undefined ? { maxHeight } : {})}
      {...(loadBridge ? { loadBridge } : {})}
    />
  );
}
InvocationCardApp.displayName = 'InvocationCard.App';

function AppViewLoading() {
  return (
    <div data-part="invocation-card-app" data-state="loading">
      <p data-part="mcp-app-loading">{useMessages().app.loading}</p>
    </div>
  );
}
