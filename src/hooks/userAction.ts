/**
 * The user's own actions on a surface (a message sent, a chip or Retry run, a decision made),
 * told to whoever listens on the surface's thread store: the transcript follows to what comes of
 * them, even when the reader had scrolled up before acting.
 */
const listeners = new WeakMap<object, Set<() => void>>();

/** Tells the surface of `store` that the user has just acted. */
export function noteUserAction(store: object): void {
  const set = listeners.get(store);
  if (set) for (const listener of [...set]) listener();
}

/** Calls `listener` on every action noted for `store`; returns the function that stops it. */
export function onUserAction(store: object, listener: () => void): () => void {
  let set = listeners.get(store);
  if (!set) listeners.set(store, (set = new Set()));
  set.add(listener);
  return () => {
    set.delete(listener);
  };
}
