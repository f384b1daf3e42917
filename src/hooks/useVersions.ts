import { useCallback, useEffect, type Ref, type RefObject } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { initialThreadState, messageVersions, replyVersions, type Row, type UserRow, type VersionPosition } from '../runtime/fold';
import type { WorkspaceAdapter } from '../workspace/types';
import { useOptionalChatSurface } from './context';
import type { ThreadStore, ThreadStoreState } from './threadStore';

/*
 * Versions in the surface (issue 40): which message of the user's is open for editing, and which
 * part should take focus when it renders next. Both outlive the rows that show them: a row is
 * replaced when the shown version changes (its key is its id), and a virtualised row leaves the
 * DOM when it scrolls away; the draft and the hand-over of focus stay here, one per thread store.
 */

/** A message of the user's open for editing: its draft, and how sending it goes. */
export interface EditingMessage {
  /** The user's message (the shown version) being edited. */
  id: string;
  text: string;
  /** `editing`, `sending` (the workspace has the edit, its reply is being written), or `error` (not sent; the draft stays). */
  state: 'editing' | 'sending' | 'error';
  /** Why the edit was not sent. */
  error: string | null;
}

/** A part that takes focus when it renders next, by what it is and whose it is. */
export interface FocusRequest {
  /** `edit` (a message's Edit button, by its first version's id), `editor` (by the message id), `previous`/`next` (a picker's button, by `pickerKey`). */
  target: 'edit' | 'editor' | 'previous' | 'next';
  key: string;
  /** Take focus even when something else has it (the user asked for this part); otherwise only when focus was lost with the part it was on. */
  force: boolean;
  /** The version the request was made on: a part still showing it leaves the request for the part that replaces it. */
  from?: string;
}

export interface VersionsUiState {
  editing: EditingMessage | null;
  focus: FocusRequest | null;
}

export type VersionsUi = StoreApi<VersionsUiState>;

const uis = new WeakMap<object, VersionsUi>();
const blank = (): VersionsUi => createStore<VersionsUiState>(() => ({ editing: null, focus: null }));

/** The editing and focus state of a thread's surface (made on first use, one per thread store). */
export function versionsUiOf(store: ThreadStore): VersionsUi {
  let ui = uis.get(store);
  if (!ui) uis.set(store, (ui = blank()));
  return ui;
}

/** Stand-ins for a part rendered outside a surface: nothing is edited, no version is known. */
const noUi = blank();
const noThread = createStore<ThreadStoreState>(() => ({ thread: initialThreadState, replaying: false }));

/** The group a user's message belongs to: its first version's id. */
export const versionGroupOf = (row: Pick<UserRow, 'id' | 'version_of'>): string => row.version_of ?? row.id;

/** The key a picker's focus requests use: its part and the event's `message_id`. */
export const pickerKey = (position: Pick<VersionPosition, 'part' | 'messageId'>): string => `${position.part}:${position.messageId}`;

/** A message of the user's can be edited: the workspace takes edits and shows versions (versions one cannot switch between are no use). */
export const canEditOn = (workspace: WorkspaceAdapter | undefined): boolean => typeof workspace?.showVersion === 'function';
/** A reply can be made again: the workspace regenerates. */
export const canRegenerateOn = (workspace: WorkspaceAdapter | undefined): boolean => typeof workspace?.regenerate === 'function';

/**
 * For the row at `index`, the id of the user's message whose reply it starts (it is the first
 * assistant row after that message), else null. Cheap: it looks back only to the nearest user or
 * assistant row (the invocation cards and decisions between them are passed over).
 * @example
 * replyStartAt(rows, 3); // 'u2' when rows[3] is the first assistant row after user message u2
 */
export function replyStartAt(rows: readonly Row[], index: number): string | null {
  if (rows[index]?.kind !== 'assistant') return null;
  for (let i = Math.min(index, rows.length) - 1; i >= 0; i--) {
    const row = rows[i]!;
    if (row.kind === 'user') return row.id;
    if (row.kind === 'assistant') return null;
  }
  return null;
}

/** The newest shown message of the user's that is written text (a skill's message is not edited here), or null. */
export function lastUserMessage(rows: readonly Row[]): UserRow | null {
  for (let i = rows.length - 1; i >= 0; i--) {
    const row = rows[i]!;
    if (row.kind === 'user') return row.skill === undefined ? row : null;
  }
  return null;
}

/** The surface's thread store and its versions state, or stand-ins outside a surface. */
function useParts() {
  const surface = useOptionalChatSurface();
  return { surface, store: surface?.store ?? noThread, ui: surface ? versionsUiOf(surface.store) : noUi };
}

/** The surface's versions state (stand-ins outside a surface, where nothing is edited). */
export function useVersionsUi(): VersionsUi {
  return useParts().ui;
}

/**
 * The id of the user's message whose reply the row at `index` starts, or null (see `replyStartAt`);
 * null outside a surface.
 * @example
 * const replyTo = useReplyStart(index); // 'u2' on the reply's first assistant row
 */
export function useReplyStart(index: number | undefined): string | null {
  const { store } = useParts();
  return useStore(store, (s) => (index === undefined ? null : replyStartAt(s.thread.rows, index)));
}

/**
 * Where a message of the user's stands among its versions ("2 / 3"), or null when it has no other
 * (or outside a surface). Re-renders only when its place changes.
 * @example
 * const position = useMessageVersions(row); // { part: 'message', index: 2, count: 3, previous: 'u2', … }
 */
export function useMessageVersions(row: UserRow | null | undefined): VersionPosition | null {
  const { store } = useParts();
  return useStore(store, useShallow((s: ThreadStoreState) => (row ? messageVersions(s.thread.versions, row) : null)));
}

/**
 * Where the reply shown under a message of the user's stands among its regenerations, or null
 * when it has no other (or outside a surface).
 * @example
 * const position = useReplyVersions('u2'); // { part: 'reply', index: 1, count: 2, next: 'r2', … }
 */
export function useReplyVersions(messageId: string | null | undefined): VersionPosition | null {
  const { store } = useParts();
  return useStore(store, useShallow((s: ThreadStoreState) => (messageId ? replyVersions(s.thread.versions, messageId) : null)));
}

/** True while a reply is being written (the workspace refuses to switch versions then). */
export function useTurnRunning(): boolean {
  const { store } = useParts();
  return useStore(store, (s) => s.thread.activeTurn !== null);
}

/** The message's editor state while it is open for editing, else null. */
export function useEditingMessage(id: string): EditingMessage | null {
  const ui = useVersionsUi();
  return useStore(ui, (s) => (s.editing?.id === id ? s.editing : null));
}

/** Opens a message of the user's for editing, with its text, and focuses the editor when it renders. */
export function openEditor(ui: VersionsUi, row: UserRow): void {
  ui.setState({ editing: { id: row.id, text: row.text, state: 'editing', error: null }, focus: { target: 'editor', key: row.id, force: true } });
}

/** Changes the open editor's state, if it is still this message's. */
export function updateEditor(ui: VersionsUi, id: string, change: Partial<Omit<EditingMessage, 'id'>>): void {
  const editing = ui.getState().editing;
  if (editing?.id === id) ui.setState({ editing: { ...editing, ...change } });
}

/**
 * Opens the editor of the newest message of the user's shown (↑ in an empty message box): true
 * when it did, false when there is none, or the workspace takes no edits. Given the element the
 * key was pressed in, only when that message is on the page of its surface (a long reply may have
 * taken it out of a virtualised transcript): an editor must not open out of sight.
 * @example
 * const editLast = useEditLast();
 * if (event.key === 'ArrowUp' && editLast(event.currentTarget)) event.preventDefault();
 */
export function useEditLast(): (from?: Element | null) => boolean {
  const { surface, ui } = useParts();
  return useCallback(
    (from?: Element | null) => {
      if (!surface || !canEditOn(surface.workspace)) return false;
      const row = lastUserMessage(surface.store.getState().thread.rows);
      if (!row) return false;
      if (from && !from.closest('[data-chat-surface]')?.querySelector(`[data-part="message"][data-message-id="${CSS.escape(row.id)}"]`)) return false;
      openEditor(ui, row);
      return true;
    },
    [surface, ui],
  );
}

/** True when focus has nowhere to be: the part that had it left the page. */
const focusLost = () => typeof document !== 'undefined' && (document.activeElement === null || document.activeElement === document.body);

/**
 * Takes focus for the element in `ref` when a request names it (`target` and `key`) and it is
 * shown (`shown`), unless it shows the version the request was made on (`version`); `then` runs
 * after (to put the caret at the end of a text box).
 */
export function useFocusRequest<T extends HTMLElement>(
  target: FocusRequest['target'],
  key: string,
  ref: RefObject<T | null>,
  { shown = true, version, then }: { shown?: boolean; version?: string; then?: (el: T) => void } = {},
): void {
  const ui = useVersionsUi();
  const request = useStore(ui, (s) => (s.focus && s.focus.target === target && s.focus.key === key && (s.focus.from === undefined || s.focus.from !== version) ? s.focus : null));
  useEffect(() => {
    const el = ref.current;
    if (!request || !shown || !el) return;
    ui.setState({ focus: null });
    if (!request.force && !focusLost()) return;
    el.focus();
    then?.(el);
  }, [request, shown, ui]);
}

/** One ref callback for the part's own ref and the host's (an object or a callback). */
export function useMergedRef<T>(own: RefObject<T | null>, theirs: Ref<T> | undefined): (el: T | null) => void {
  return useCallback(
    (el: T | null) => {
      own.current = el;
      if (typeof theirs === 'function') theirs(el);
      else if (theirs) theirs.current = el;
    },
    [own, theirs],
  );
}
