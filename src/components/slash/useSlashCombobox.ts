import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import type { CatalogNode } from '../../runtime/catalogNodes';
import { useOptionalSlash } from './context';
import { filterNodes } from './filterSkills';
import { createHighlight, type Highlight } from './highlight';

/** The combobox's state, shared by the message box (keys, ARIA) and the popup (list). */
export interface SlashComboboxState {
  open: boolean;
  /** What was typed after the slash. */
  filter: string;
  items: readonly CatalogNode[];
  /** The highlighted option (`highlight.at(items)`); moving it changes neither this object nor the composer. */
  highlight: Highlight;
  /** Highlights option `index` of `items` (the mouse). */
  setActive(index: number): void;
  status: 'loading' | 'error' | 'ready';
  error: string | null;
  /** The listbox's DOM id, reported by the popup once the list is in the page (for `aria-controls`). */
  listId: string | undefined;
  setListId(id: string | undefined): void;
  /** Runs (Enter, click) or completes (Tab) an option. */
  choose(node: CatalogNode, how: 'run' | 'complete'): void;
  /** Closes the popup and keeps the text. */
  dismiss(): void;
  /** Handles a key in the message box; true when the combobox used it. */
  onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>): boolean;
  /** The message box has the focus: the skills are looked up at the next quiet moment (once). */
  prepare(): void;
}

/** The DOM id of the option at `index` of the list `listId`: derived, so the highlight needs no id reported back. */
export const optionId = (listId: string, index: number) => `${listId}-option-${index}`;

const noop = () => {};

/** Options a Page Up / Page Down moves: the six the list shows. */
export const PAGE_OPTIONS = 6;

/** An instruction skill needs a task after its word; the others run as they are. */
const needsTask = (node: CatalogNode) => !node.skill?.action && Boolean(node.skill?.instructions);

/** Where a navigation key moves the highlight from `active` in a list of `count`, or null for other keys. */
function moveFor(key: string, active: number, count: number): number | null {
  switch (key) {
    case 'ArrowDown':
      return (active + 1) % count;
    case 'ArrowUp':
      return (active + count - 1) % count;
    case 'PageDown':
      return Math.min(count - 1, active + PAGE_OPTIONS);
    case 'PageUp':
      return Math.max(0, active - PAGE_OPTIONS);
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}

/**
 * The slash combobox's behaviour: `/` at the start of the message box opens
 * it, the text after it filters, ↑/↓ move (and wrap), Page Up/Page Down move
 * by six, Home/End go to the first/last option, Enter runs the highlighted
 * skill (or completes one that needs a task), Tab completes, Escape closes
 * and keeps the text. Nothing happens while an input method is composing.
 * Null without slash skills.
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
  // The highlight belongs to the list it was moved in: a new filter starts at the first option.
  const [highlight] = useState(createHighlight);
  const [listId, setListId] = useState<string | undefined>();

  const skills = slash?.skills;
  // The list opened before the page was idle: the skills are looked up now.
  const waiting = Boolean(typed) && slash?.status === 'loading';
  const discover = slash?.discover;
  useEffect(() => {
    if (waiting) discover?.();
  }, [waiting, discover]);
  const items = useMemo(() => (typed && skills ? filterNodes(skills, filter) : []), [Boolean(typed), skills, filter]);
  const open = Boolean(typed) && !dismissed;

  // The callbacks read the latest values, so they stay the same function for the list's whole life
  // (the memoised options compare them); a key moves the highlight in one update, one commit.
  const latest = useRef({ open, items, value, setValue, submit });
  latest.current = { open, items, value, setValue, submit };
  const setActive = useCallback((index: number) => highlight.move(latest.current.items, index), [highlight]);
  const choose = useCallback((node: CatalogNode, how: 'run' | 'complete') => {
    const { setValue, submit } = latest.current;
    if (how === 'complete' || needsTask(node)) setValue(`/${node.id} `);
    else submit(`/${node.id}`);
  }, []);
  const dismiss = useCallback(() => setDismissedAt(latest.current.value), []);
  const onKeyDown = useCallback((event: KeyboardEvent<HTMLTextAreaElement>) => {
    const { open, items } = latest.current;
    if (!open) return false;
    const active = highlight.at(items);
    if (event.nativeEvent.isComposing || event.keyCode === 229) return true;
    const count = items.length;
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp':
      case 'PageDown':
      case 'PageUp':
      case 'Home':
      case 'End': {
        if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return false;
        event.preventDefault();
        if (!count) return true;
        const next = moveFor(event.key, active, count)!;
        highlight.move(items, next);
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
  }, [highlight, choose, dismiss]);
  const status = slash?.status ?? 'ready';
  const error = slash?.error ?? null;
  // One object per change of what it holds (not per render, not per highlight move): the popup's
  // context and the memoised list re-render only when the list or the status changes.
  const prepare = slash?.prepare ?? noop;
  const state = useMemo<SlashComboboxState>(
    () => ({ open, filter, items, highlight, setActive, status, error, listId, setListId, choose, dismiss, onKeyDown, prepare }),
    [open, filter, items, highlight, setActive, status, error, listId, setListId, choose, dismiss, onKeyDown, prepare],
  );
  return slash && enabled ? state : null;
}

/**
 * Keeps the message box's `aria-activedescendant` on the highlighted option
 * while the list is shown (and removes it otherwise), written to the element
 * when the highlight moves rather than rendered: a ↓ key re-renders neither
 * the composer nor the box. The attribute is this hook's alone (never a prop).
 */
export function useActiveDescendant(box: RefObject<HTMLElement | null>, state: SlashComboboxState | null): void {
  const listId = state?.open && state.items.length > 0 ? state.listId : undefined;
  const highlight = state?.highlight;
  const items = state?.items;
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    if (listId === undefined || !highlight || !items) {
      el.removeAttribute('aria-activedescendant');
      return;
    }
    const write = () => el.setAttribute('aria-activedescendant', optionId(listId, highlight.at(items)));
    write();
    const unsubscribe = highlight.subscribe(write);
    return () => {
      unsubscribe();
      el.removeAttribute('aria-activedescendant');
    };
  }, [box, listId, highlight, items]);
}
