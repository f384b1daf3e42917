import { useMemo } from 'react';
import { useStore } from 'zustand';
import type { CastEntry, Row, ThreadState, UserRow } from '../runtime/fold';
import type { ActiveView } from '../runtime/events';
import { useChatSurface } from './context';

/**
 * Reads a slice of the thread; the component re-renders only when the slice changes.
 * @example
 * const malformed = useThreadSelector((t) => t.malformed);
 */
export function useThreadSelector<T>(selector: (thread: ThreadState) => T): T {
  const { store } = useChatSurface();
  return useStore(store, (s) => selector(s.thread));
}

/**
 * The ids of the transcript's rows; re-renders only when a row is added. The
 * fold appends to the array in place (no copy per row), so the same array
 * may come back longer: depend on its `length`, not on its identity.
 * @example
 * const ids = useRowIds();
 */
export function useRowIds(): readonly string[] {
  const { store } = useChatSurface();
  useStore(store, (s) => s.thread.ids.length);
  return store.getState().thread.ids;
}

/**
 * True while a long history is folded in slices before it is first shown.
 * @example
 * const loading = useThreadReplaying();
 */
export function useThreadReplaying(): boolean {
  const { store } = useChatSurface();
  return useStore(store, (s) => s.replaying);
}

/**
 * One row by index; a streamed token re-renders only the row it lands in.
 * @example
 * const row = useRow(3);
 */
export function useRow(index: number): Row | undefined {
  return useThreadSelector((t) => t.rows[index]);
}

/**
 * The open invocations, for the cast row.
 * @example
 * const cast = useCast();
 */
export function useCast(): CastEntry[] {
  const open = useThreadSelector((t) => t.open);
  return useMemo(() => Object.values(open), [open]);
}

/**
 * The turn in progress, or null; the Stop button shows while it is set.
 * @example
 * const turn = useActiveTurn();
 */
export function useActiveTurn(): string | null {
  return useThreadSelector((t) => t.activeTurn);
}

/**
 * What the host says the user is looking at (it keys the suggestions).
 * @example
 * const view = useActiveView();
 */
export function useActiveView(): ActiveView | null {
  return useThreadSelector((t) => t.activeView);
}

/** How far back from the end the assistant's streaming message is looked for. */
const RECENT_ROWS = 24;

/** The assistant's part in the cast row: writing while a reply streams, thinking while a turn waits on the model. */
export interface AssistantActivity {
  state: 'writing' | 'thinking';
  /** The answering model's label, e.g. `Offline model`. */
  label: string;
}

/**
 * The assistant's activity, or null when it is idle. A reply streams near the
 * end of the thread, so only the last rows are looked at.
 * @example
 * const activity = useAssistantActivity(); // { state: 'writing', label: 'Offline model' }
 */
export function useAssistantActivity(fallbackLabel = 'Assistant'): AssistantActivity | null {
  const key = useThreadSelector((t) => {
    for (let i = t.rows.length - 1, seen = 0; i >= 0 && seen < RECENT_ROWS; i--, seen++) {
      const row = t.rows[i]!;
      if (row.kind === 'assistant' && row.status === 'streaming') return `writing\u0000${row.driver?.label ?? fallbackLabel}`;
    }
    return t.activeTurn !== null && Object.keys(t.open).length === 0 ? `thinking\u0000${fallbackLabel}` : null;
  });
  return useMemo(() => {
    if (key === null) return null;
    const [state, label] = key.split('\u0000') as ['writing' | 'thinking', string];
    return { state, label };
  }, [key]);
}

/**
 * The user's message a row answers: the nearest user message before it (what Retry sends again).
 * @example
 * const text = useRetryText(index);
 */
export function useRetryText(index: number): string | null {
  return useRetryMessage(index)?.text ?? null;
}

/**
 * The user's message row a row answers (what Retry sends again: its text and, for a skill's
 * message, its `skill`); the row itself, so the selector's result compares by identity.
 * @example
 * const message = useRetryMessage(index); // → { kind: 'user', text: 'the records', skill: '/summarize', … }
 */
export function useRetryMessage(index: number): UserRow | null {
  return useThreadSelector((t) => {
    for (let i = Math.min(index, t.rows.length) - 1; i >= 0; i--) {
      const row = t.rows[i]!;
      if (row.kind === 'user') return row;
    }
    return null;
  });
}
