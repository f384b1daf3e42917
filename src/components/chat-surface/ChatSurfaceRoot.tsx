import { useEffect, useLayoutEffect, useMemo, type ComponentPropsWithRef } from 'react';
import { ChatSurfaceContext, type ChatSurfaceContextValue } from '../../hooks/context';
import { createThreadStore } from '../../hooks/threadStore';
import type { ActiveView } from '../../runtime/events';
import type { WorkspaceAdapter } from '../../workspace/types';

export interface ChatSurfaceRootProps extends ComponentPropsWithRef<'section'> {
  /** The host's workspace: the only thing the surface talks to. */
  workspace: WorkspaceAdapter;
  /** Which thread to show. @default 'main' */
  threadId?: string;
  /** Colour scheme; `system` follows the user's preference. @default 'system' */
  theme?: 'light' | 'dark' | 'system';
  /** What the user is looking at in the host app (e.g. `{ kind: 'record_list' }`); a change is told to the workspace and re-keys the suggestions. */
  activeView?: ActiveView;
}

/**
 * Provides the workspace and the thread's store to every part, and scopes the theme.
 * @example
 * <ChatSurfaceRoot workspace={workspace}><Transcript /><Composer.Root>…</Composer.Root></ChatSurfaceRoot>
 */
export function ChatSurfaceRoot({ workspace, threadId = 'main', theme = 'system', activeView, children, ...props }: ChatSurfaceRootProps) {
  if (!workspace || typeof workspace.subscribe !== 'function') {
    throw new Error('<ChatSurface> needs a `workspace` prop: pass createLocalWorkspace({ capabilities }) or your own WorkspaceAdapter.');
  }
  const store = useMemo(() => createThreadStore(), [workspace, threadId]);
  const value = useMemo<ChatSurfaceContextValue>(() => ({ workspace, store, threadId }), [workspace, store, threadId]);

  useIsomorphicLayoutEffect(() => {
    const unsubscribe = workspace.subscribe(threadId, store.receive, { since: store.getState().thread.appliedUpTo });
    // The history the workspace replays on subscribe is applied now, before the first paint
    // (no empty flash, no frame of waiting); live events then batch once per frame.
    store.flush();
    return unsubscribe;
  }, [workspace, threadId, store]);

  // Compared by value (viewKey stands for activeView): a host may pass a fresh object on every render.
  const viewKey = activeView ? JSON.stringify([activeView.kind, activeView.id ?? null, activeView.title ?? null]) : null;
  useEffect(() => {
    if (activeView) workspace.setView({ threadId, view: activeView });
  }, [workspace, threadId, viewKey]);

  return (
    <ChatSurfaceContext.Provider value={value}>
      <section aria-label="Chat" {...props} data-chat-surface="" data-theme={theme}>
        {children}
      </section>
    </ChatSurfaceContext.Provider>
  );
}
ChatSurfaceRoot.displayName = 'ChatSurface.Root';

const useIsomorphicLayoutEffect = typeof document === 'undefined' ? useEffect : useLayoutEffect;
