import { createContext, useContext } from 'react';
import type { CatalogNode } from '../../runtime/catalogNodes';

/** What the slash UI shows besides the combobox: a node picker, a content panel or an inline notice. */
export type SlashPanel =
  | { kind: 'pick'; title: string; query: string; field: 'harness' | 'agentName' | 'modelName'; filter: string }
  | { kind: 'content'; path: string; skill: string }
  | { kind: 'notice'; tone: 'info' | 'error'; text: string; skill?: CatalogNode }
  /** The user's own MCP servers: list, connect, disconnect (issue 17). */
  | { kind: 'connectors'; skill: string };

export interface SlashContextValue {
  /** False when the workspace has no node query: the composer is a plain message box. */
  enabled: boolean;
  /** The discovered skills, in the query's order (empty while loading or after a failure). */
  skills: readonly CatalogNode[];
  /** `loading` until the first discovery answers. */
  status: 'loading' | 'error' | 'ready';
  /** Discovers the skills now (the list opened before they were looked up). */
  discover(): void;
  /**
   * The user stepped into the message box: look the skills up, and fetch the list's code, at the
   * next idle moment with no turn in progress (`whenQuiet`). Once; later calls do nothing.
   */
  prepare(): void;
  /** Why discovery failed, in words. */
  error: string | null;
  /** Runs a slash command; null when `text` is not one (send it as a message). Rejects with a message when it cannot run. */
  run(text: string): Promise<void> | null;
  panel: SlashPanel | null;
  /** Closes the picker, panel or notice; focus goes back to the message box. */
  closePanel(): void;
}

export const SlashContext = createContext<SlashContextValue | null>(null);

/** The slash context, or null outside `<Slash.Root>` (the composer then sends everything as a message). */
export function useOptionalSlash(): SlashContextValue | null {
  return useContext(SlashContext);
}

export function useSlash(part: string): SlashContextValue {
  const value = useContext(SlashContext);
  if (!value) throw new Error(`<Slash.${part}> must be used within <Slash.Root> (inside <ChatSurface.Root>).`);
  return value;
}

/** Moves focus to the surface's message box (after a picker or panel closes). */
export function focusComposer(from: Element | null | undefined): void {
  const surface = from?.closest('[data-chat-surface]') ?? document.querySelector('[data-chat-surface]');
  surface?.querySelector<HTMLElement>('[data-part="composer-input"]')?.focus();
}
