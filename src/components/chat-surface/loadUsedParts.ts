// How the chunk of the parts loaded on use (./usedParts) is fetched: once, shared by every part in
// it, and handed over at once when it is there (a part shown first after the chunk came does not
// suspend). Used by ../message/deferredMessageParts and ../composer/ComposerDictate.

type UsedParts = typeof import('./usedParts');
let loaded: UsedParts | undefined;
let loading: Promise<UsedParts> | null = null;
/** The chunk once it is there (so a part first shown after it came renders at once), else the promise of it; a failed load is tried again. */
export const loadUsedParts = (): UsedParts | Promise<UsedParts> =>
  loaded ??
  (loading ??= import('./usedParts').then(
    (m) => (loaded = m),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  ));
/** The chunk if it is there already, else undefined (nothing is fetched). */
export const usedPartsLoaded = (): UsedParts | undefined => loaded;
/** One part of the chunk, for `deferred()`: at once when the chunk is there. */
export const usedPart =
  <T,>(pick: (m: UsedParts) => T) =>
  (): T | Promise<T> => {
    const parts = loadUsedParts();
    return parts instanceof Promise ? parts.then(pick) : pick(parts);
  };

