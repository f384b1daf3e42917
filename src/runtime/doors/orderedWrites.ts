/**
 * Store writes in order per key, fire and forget: a write never overtakes an
 * earlier one of its key (a put is never overtaken by the delete of a
 * `forget` after it), and a failed one is reported, not thrown.
 */
export interface OrderedWrites {
  /** Runs `op` once the writes of `k` begun before it have landed. */
  write(k: string, op: () => void | Promise<unknown>): void;
  /** Resolves once every write begun so far, and any begun meanwhile, has landed. */
  drained(): Promise<void>;
}

export function createOrderedWrites(onError: (error: unknown) => void): OrderedWrites {
  const writes = new Map<string, Promise<void>>();
  return {
    write(k, op) {
      const next = (writes.get(k) ?? Promise.resolve()).then(op).then(
        () => undefined,
        (error: unknown) => onError(error),
      );
      writes.set(k, next);
      void next.then(() => {
        if (writes.get(k) === next) writes.delete(k);
      });
    },
    async drained() {
      while (writes.size) await Promise.all([...writes.values()]);
    },
  };
}
