import { useMemo } from 'react';
import { useStore } from 'zustand';
import type { CastEntry, Row, ThreadState } from '../runtime/fold';
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
 * The ids of the transcript's rows; changes only when a row is added.
 * @example
 * const ids = useRowIds();
 */
export function useRowIds(): readonly string[] {
  return useThreadSelector((t) => t.ids);
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
