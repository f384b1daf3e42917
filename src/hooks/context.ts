import { createContext, useContext } from 'react';
import type { WorkspaceAdapter } from '../workspace/types';
import type { ThreadStore } from './threadStore';

export interface ChatSurfaceContextValue {
  workspace: WorkspaceAdapter;
  store: ThreadStore;
  threadId: string;
  /** The surface's landmark name ('Chat', 'Chat 2'…), for the names of its parts. @default 'Chat' */
  label?: string;
}

export const ChatSurfaceContext = createContext<ChatSurfaceContextValue | null>(null);

/**
 * The surface's workspace, store and thread id.
 * @example
 * const { workspace, threadId } = useChatSurface();
 */
export function useChatSurface(): ChatSurfaceContextValue {
  const value = useContext(ChatSurfaceContext);
  if (!value) {
    throw new Error(
      'useChatSurface must be used within <ChatSurface> or <ChatSurface.Root>: wrap this part in one and pass it a workspace.',
    );
  }
  return value;
}

/** Like `useChatSurface`, but null outside a surface (for parts that also render standalone). */
export function useOptionalChatSurface(): ChatSurfaceContextValue | null {
  return useContext(ChatSurfaceContext);
}
