/**
 * The slash list's highlighted option, outside React state: a key that moves
 * it re-renders only what shows it (the list and its two options, the message
 * box's `aria-activedescendant`), not the composer that owns it. It belongs
 * to the list it was moved in: for any other list (a new filter, new skills)
 * the first option is highlighted.
 * @example
 * const highlight = createHighlight();
 * highlight.move(items, 3);
 * highlight.at(items); // 3
 */
export interface Highlight {
  /** The highlighted index in `items`: where it was moved in that list, else 0. */
  at(items: readonly unknown[]): number;
  /** Highlights option `index` of `items`; tells the subscribers if that changes what `at(items)` says. */
  move(items: readonly unknown[], index: number): void;
  subscribe(listener: () => void): () => void;
}

export function createHighlight(): Highlight {
  let list: readonly unknown[] | null = null;
  let index = 0;
  const listeners = new Set<() => void>();
  return {
    at: (items) => (items === list ? Math.min(index, Math.max(0, items.length - 1)) : 0),
    move(items, next) {
      if (items === list && next === index) return;
      list = items;
      index = next;
      for (const listener of [...listeners]) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
