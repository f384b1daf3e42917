import { useCallback, useRef } from 'react';

export interface KeyCache {
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
  if (!cache) cache = ref.current = { ids, keys: [], seen: new Map() };
  else if (cache.ids !== ids || cache.keys.length > ids.length) cache = ref.current = rebase(cache, ids);
  extendKeys(cache, ids);
  const { keys } = cache;
  return useCallback((index: number) => keys[index] ?? String(index), [keys]);
}

/**
 * The cache for another ids array (a version switched, the path laid out again): the keys of the
 * rows both arrays begin with are kept, the old array's other ids are counted out, and a new keys
 * array is made (so the key function is a new one). Ids are only ever appended to an array in
 * place, so the old array's first `keys.length` ids are still the ones its keys were made for.
 */
export function rebase(cache: KeyCache, ids: readonly string[]): KeyCache {
  const { keys, seen } = cache;
  const max = Math.min(keys.length, ids.length);
  let kept = 0;
  while (kept < max && cache.ids[kept] === ids[kept]) kept++;
  for (let i = kept; i < keys.length; i++) {
    const id = cache.ids[i]!;
    const count = seen.get(id)!;
    if (count > 1) seen.set(id, count - 1);
    else seen.delete(id);
  }
  return { ids, keys: keys.slice(0, kept), seen };
}

/** Adds the keys of the ids past the cache's end. */
export function extendKeys(cache: KeyCache, ids: readonly string[]): void {
  for (let i = cache.keys.length; i < ids.length; i++) {
    const id = ids[i]!;
    const count = cache.seen.get(id) ?? 0;
    cache.seen.set(id, count + 1);
    cache.keys.push(count === 0 ? id : `${id}\u0000${count}`);
  }
}
