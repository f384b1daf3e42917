import { useEffect, useMemo, type ComponentPropsWithRef } from 'react';
import { ChatSurfaceContext, type ChatSurfaceContextValue } from '../../hooks/context';
import { createThreadStore } from '../../hooks/threadStore';
import type { WorkspaceAdapter } from '../../workspace/types';

export interface ChatSurfaceRootProps extends ComponentPropsWithRef<'section'> {
  /** The host's workspace: the only thing the surface talks to. */
  workspace: WorkspaceAdapter;
  /** Which thread to show. @default 'main' */
  threadId?: string;
  /** Colour scheme; `system` follows the user's preference. @default 'system' */
  theme?: 'light' | 'dark' | 'system';
}

/**
 * Provides the workspace and the thread's store to every part, and scopes the theme.
 * @example
 * <ChatSurfaceRoot workspace={workspace}><Transcript /><Composer.Root>…</Composer.Root></ChatSurfaceRoot>
 */
export function ChatSurfaceRoot({ workspace, threadId = 'main', theme = 'system', children, ...props }: ChatSurfaceRootProps) {
  if (!workspace || typeof workspace.subscribe !== 'function') {
    throw new Error('<ChatSurface> needs a `workspace` prop: pass createLocalWorkspace({ capabilities }) or your own WorkspaceAdapter.');
  }
  const store = useMemo(() => createThreadStore(), [workspace, threadId]);
  const value = useMemo<ChatSurfaceContextValue>(() => ({ workspace, store, threadId }), [workspace, store, threadId]);

  useEffect(
    () => workspace.subscribe(threadId, store.receive, { since: store.getState().thread.appliedUpTo }),
    [workspace, threadId, store],
  );

  return (
    <ChatSurfaceContext.Provider value={value}>
      <section aria-label="Chat" {...props} data-chat-surface="" data-theme={theme}>
        {children}
      </section>
    </ChatSurfaceContext.Provider>
  );
}
ChatSurfaceRoot.displayName = 'ChatSurface.Root';
