/** A part of the code fetched on first use (see `loadOnce`). */
export interface LoadedOnce<T> {
  /** The part: fetched by the first call, shared by every call meanwhile, at once after. */
  load(): Promise<T>;
  /** The part once it is in, else undefined (a caller that can go on in the same task). */
  current(): T | undefined;
}

/** A load that failed, in words (a part made from another loaded part passes its words on as they are). */
class LoadFailed extends Error {}

/**
 * A part of the code loaded on first use, once (a chunk a page carries only
 * when it needs it): a failed load (a chunk the network lost) is forgotten,
 * so the next use tries again, and its error says so in plain words: "The
 * chat could not load `what` (why). Reload the page to try again." A part
 * made from another part (`loadOnce(() => other.load().then(make))`) is made
 * once too, and a failure of the other's load keeps its words.
 * @example
 * const turnCode = loadOnce(() => import('./turnParts'), 'its turn code');
 * const parts = turnCode.current() ?? (await turnCode.load());
 */
export function loadOnce<T>(load: () => Promise<T>, what: string): LoadedOnce<T> {
  let part: { value: T } | undefined;
  let loading: Promise<T> | undefined;
  return {
    load() {
      if (part) return Promise.resolve(part.value);
      loading ??= load().then(
        (value) => {
          part = { value };
          return value;
        },
        (error: unknown) => {
          loading = undefined;
          if (error instanceof LoadFailed) throw error;
          throw new LoadFailed(`The chat could not load ${what} (${error instanceof Error ? error.message : String(error)}). Reload the page to try again.`, { cause: error });
        },
      );
      return loading;
    },
    current: () => part?.value,
  };
}
