import { useCallback, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { CatalogNode } from '../../runtime/slash/nodes';
import { useOptionalSlash } from './context';
import { filterNodes } from './filterSkills';

/** The combobox's state, shared by the message box (keys, ARIA) and the popup (list). */
export interface SlashComboboxState {
  open: boolean;
  /** What was typed after the slash. */
  filter: string;
  items: readonly CatalogNode[];
  /** Index of the highlighted option. */
  active: number;
  setActive(index: number): void;
  status: 'loading' | 'error' | 'ready';
  error: string | null;
  /** DOM ids reported by the popup, for `aria-controls` / `aria-activedescendant`. */
  listId: string | undefined;
  setListId(id: string | undefined): void;
  activeId: string | undefined;
  setActiveId(id: string | undefined): void;
  /** Runs (Enter, click) or completes (Tab) an option. */
  choose(node: CatalogNode, how: 'run' | 'complete'): void;
  /** Closes the popup and keeps the text. */
  dismiss(): void;
  /** Handles a key in the message box; true when the combobox used it. */
  onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>): boolean;
}

/** An instruction skill needs a task after its word; the others run as they are. */
const needsTask = (node: CatalogNode) => !node.skill?.action && Boolean(node.skill?.instructions);

/**
 * The slash combobox's behaviour: `/` at the start of the message box opens
 * it, the text after it filters, ↑/↓ move, Enter runs the highlighted skill
 * (or completes one that needs a task), Tab completes, Escape closes and keeps
 * the text. Nothing happens while an input method is composing. Null without
 * slash skills.
 */
export function useSlashCombobox(value: string, setValue: (value: string) => void, submit: (text: string) => void): SlashComboboxState | null {
  const slash = useOptionalSlash();
  const enabled = Boolean(slash?.enabled);
  const typed = enabled ? /^\/(\S*)$/.exec(value) : null;
  const filter = typed?.[1] ?? '';
  // Escape closes the list for the word being typed: it stays closed while the user goes on typing
  // it, and opens again once the text no longer extends what it was at Escape.
  const [dismissedAt, setDismissedAt] = useState<string | null>(null);
  const dismissed = dismissedAt !== null && value.startsWith(dismissedAt);
  const [cursor, setCursor] = useState({ filter, index: 0 });
  const [listId, setListId] = useState<string | undefined>();
  const [activeId, setActiveId] = useState<string | undefined>();

  const skills = slash?.skills;
  const items = useMemo(() => (typed && skills ? filterNodes(skills, filter) : []), [Boolean(typed), skills, filter]);
  const open = Boolean(typed) && !dismissed;
  const active = cursor.filter === filter ? Math.min(cursor.index, Math.max(0, items.length - 1)) : 0;
  const setActive = useCallback((index: number) => setCursor({ filter, index }), [filter]);

  const choose = useCallback(
    (node: CatalogNode, how: 'run' | 'complete') => {
      if (how === 'complete' || needsTask(node)) setValue(`/${node.id} `);
      else submit(`/${node.id}`);
    },
    [setValue, submit],
  );
  const dismiss = useCallback(() => setDismissedAt(value), [value]);

  // One object per change of what it holds (not per render), with a key handler that reads the
  // latest values: the popup's context and the memoised list re-render only when the list changes.
  const latest = useRef({ open, items, active, filter, choose, dismiss, listId });
  latest.current = { open, items, active, filter, choose, dismiss, listId };
  const onKeyDown = useCallback((event: KeyboardEvent<HTMLTextAreaElement>) => {
    const { open, items, active, filter, choose, dismiss, listId } = latest.current;
    if (!open) return false;
    if (event.nativeEvent.isComposing || event.keyCode === 229) return true;
    const count = items.length;
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        event.preventDefault();
        if (!count) return true;
        const next = (active + (event.key === 'ArrowDown' ? 1 : count - 1)) % count;
        setCursor({ filter, index: next });
        // The highlighted option's id in the same update (one commit per key): options carry
        // aria-posinset; one far away (not rendered yet) reports its id when it mounts.
        const option = listId ? document.getElementById(listId)?.querySelector(`[aria-posinset="${next + 1}"]`) : null;
        if (option?.id) setActiveId(option.id);
        return true;
      }
      case 'Enter':
      case 'Tab': {
        if (event.shiftKey) return false;
        const node = items[active];
        if (!node) return false; // nothing matches: Enter sends the text, which then says the word is unknown
        event.preventDefault();
        choose(node, event.key === 'Tab' ? 'complete' : 'run');
        return true;
      }
      case 'Escape':
        event.preventDefault();
        dismiss();
        return true;
      default:
        return false;
    }
  }, []);
  const status = slash?.status ?? 'ready';
  const error = slash?.error ?? null;
  const state = useMemo<SlashComboboxState>(
    () => ({ open, filter, items, active, setActive, status, error, listId, setListId, activeId, setActiveId, choose, dismiss, onKeyDown }),
    [open, filter, items, active, setActive, status, error, listId, activeId, choose, dismiss, onKeyDown],
  );
  return slash && enabled ? state : null;
}
