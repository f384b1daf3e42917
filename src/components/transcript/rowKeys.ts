import { useCallback, useRef } from 'react';

interface KeyCache {
  ids: readonly string[];
  keys: string[];
  seen: Map<string, number>;
}

/**
 * React keys for the transcript's rows: each row's id, made unique. Two rows of different kinds
 * may share an id (a sub-thread's link and its summary are both named by the child thread's id),
 * and two children with one key could be duplicated or dropped: a repeated id gets its count.
 * Worked out for the rows that came in since the last render only (the ids grow in place).
 */
export function useRowKeys(ids: readonly string[]): (index: number) => string {
  const ref = useRef<KeyCache | null>(null);
  let cache = ref.current;
  if (!cache || cache.ids !== ids || cache.keys.length > ids.length) cache = ref.current = { ids, keys: [], seen: new Map() };
  extendKeys(cache, ids);
  const { keys } = cache;
  return useCallback((index: number) => keys[index] ?? String(index), [keys]);
}

/** Adds the keys of the ids past the cache's end. */
function extendKeys(cache: KeyCache, ids: readonly string[]): void {
  for (let i = cache.keys.length; i < ids.length; i++) {
    const id = ids[i]!;
    const count = cache.seen.get(id) ?? 0;
    cache.seen.set(id, count + 1);
    cache.keys.push(count === 0 ? id : `${id}\u0000${count}`);
  }
}
