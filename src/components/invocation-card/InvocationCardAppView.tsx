import { useEffect, useState, type ComponentPropsWithRef } from 'react';
import type { InvocationRow } from '../../runtime/fold';
import type { McpAppResource } from '../../runtime/mcpApp';
import type { WorkspaceAdapter } from '../../workspace/types';
import { McpAppFrame, type AppBridgeModule } from '../mcp-app/McpAppFrame';
import { useMessages } from '../messages/context';

/** Views the user closed, by invocation id: a card that mounts again (scrolled away and back) keeps its view closed. */
const closedViews = new Set<string>();

export interface InvocationCardAppViewProps extends ComponentPropsWithRef<'div'> {
  row: InvocationRow;
  workspace: WorkspaceAdapter;
  threadId: string;
  /** Told of each card a call from the view added (that card then says so instead of a second view). */
  onAppCall: (invocationId: string, fromInvocationId: string) => void;
  maxHeight?: number;
  loadBridge?: () => Promise<AppBridgeModule>;
}

/**
 * The part of `InvocationCard.App` that shows a view (loaded on first use,
 * with the frame): reads it through the workspace, then shows it in the
 * sandboxed frame; its tool calls go through `callAppTool`, inside this card (the workspace
 * adds no card per call; a tool that needs approval asks once per app session). `data-state` is
 * `loading`, `error` or `shown`.
 */
export function InvocationCardAppView({ row, workspace, threadId, onAppCall, maxHeight, loadBridge, ...props }: InvocationCardAppViewProps) {
  const [view, setView] = useState<{ id: string; resource?: McpAppResource; problem?: string } | null>(null);

  useEffect(() => {
    if (!workspace.readApp) return undefined;
    let stale = false;
    setView({ id: row.id });
    workspace.readApp({ threadId, invocationId: row.id }).then(
      (resource) => !stale && setView({ id: row.id, resource }),
      (error: unknown) => !stale && setView({ id: row.id, problem: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      stale = true;
    };
  }, [workspace, threadId, row.id]);

  const m = useMessages().app;
  const name = m.name(row.title);
  if (!view?.resource) {
    return (
      <div {...props} data-part="invocation-card-app" data-state={view?.problem ? 'error' : 'loading'}>
        {view?.problem ? <p role="alert">{m.notLoaded(view.problem)}</p> : <p data-part="mcp-app-loading">{m.loading}</p>}
      </div>
    );
  }
  const call = workspace.callAppTool;
  return (
    <div {...props} data-part="invocation-card-app" data-state="shown">
      <McpAppFrame
        view={view.resource}
        title={name}
        toolInput={isRecord(row.args) ? row.args : {}}
        {...(row.result ? { toolResult: row.result } : {})}
        {...(call
          ? {
              onCallTool: async (tool: string, args: Record<string, unknown>, { session }: { session: string }) => {
                // Inside this card: the workspace adds nothing to the thread for it (a server before issue 44 added a card, marked as the app's).
                const answer = await call({ threadId, invocationId: row.id, name: tool, arguments: args, session });
                if (answer.invocationId) onAppCall(answer.invocationId, row.id);
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
