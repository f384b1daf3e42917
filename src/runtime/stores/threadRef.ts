/** A value now, or later: SQLite answers at once, a network database later. */
export type MaybePromise<T> = T | Promise<T>;

/** Who owns a thread, and its client-chosen id (unique only within its owner). */
export interface ThreadRef {
  user: string;
  space: string;
  id: string;
}

/** One string per thread, safe as a map key or a database key (ids are `[A-Za-z0-9_.-]`). */
export function threadKey(ref: ThreadRef): string {
  return `${encodeURIComponent(ref.space)}/${encodeURIComponent(ref.user)}/${ref.id}`;
}

/** The thread a key names. */
export function parseThreadKey(key: string): ThreadRef | null {
  const parts = key.split('/');
  if (parts.length !== 3) return null;
  return { space: decodeURIComponent(parts[0]!), user: decodeURIComponent(parts[1]!), id: parts[2]! };
}
