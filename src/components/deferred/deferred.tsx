import { Component, Suspense, use, type ComponentType, type ReactNode } from 'react';
import { useMessages } from '../messages/context';
import type { ChatSurfaceMessages } from '../messages/defaults';

/** What a deferred part is called in the words a load failure says: a key of `messages.load.parts`, or words as they are. */
export type LoadPart = keyof ChatSurfaceMessages['load']['parts'] | (string & {});

/** A part whose code loads on first use, or earlier through `preload` (e.g. when the browser is idle). */
export interface Deferred<P extends object> {
  /** Renders the part; suspends (showing `fallback`) until its code is loaded. */
  Part: ComponentType<P>;
  /** Starts loading the code; resolves when it is there. A failed load is tried again on the next call. */
  preload(): Promise<unknown>;
}

/**
 * Splits a heavy part (cmdk, radix dialogs) out of the page's first script.
 * `load` is a dynamic `import()`; the bundler makes it a chunk of its own. A `load` that
 * can tell its code is there already may return the component itself: it then renders at once.
 * Until it arrives the part shows `fallback` (or what `fallback(props)` gives: a shell of the same
 * size, so nothing moves when the part comes); when it cannot be loaded, it
 * says so in an alert naming what failed, and mounting it again retries.
 * @example
 * const picker = deferred(() => import('./NodePicker').then((m) => m.NodePicker), 'Slash.NodePicker', <p role="status">Opening…</p>);
 */
export function deferred<P extends object>(
  load: () => Promise<ComponentType<P>> | ComponentType<P>,
  name: string,
  fallback: ReactNode | ((props: P) => ReactNode) = null,
  what: LoadPart = 'part',
): Deferred<P> {
  // The promise carries React's thenable fields once settled, so `use` reads a loaded part
  // synchronously (no suspension after the first load) and is called on every render.
  type Tracked = Promise<ComponentType<P>> & { status?: 'fulfilled' | 'rejected'; value?: ComponentType<P>; reason?: unknown };
  let pending: Tracked | null = null;
  const preload = (): Tracked => {
    if (!pending) {
      const loading = load();
      // Code that is there already (a chunk shared with parts loaded before) renders at once, never suspending.
      if (!isThenable(loading)) return (pending = Object.assign(Promise.resolve(loading), { status: 'fulfilled' as const, value: loading }));
      const promise: Tracked = loading.then(
        (part) => Object.assign(promise, { status: 'fulfilled' as const, value: part }).value!,
        (error: unknown) => {
          pending = null;
          Object.assign(promise, { status: 'rejected' as const, reason: error });
          throw error;
        },
      );
      pending = promise;
    }
    return pending;
  };
  function Loaded(props: P) {
    const Part = use(preload() as Promise<ComponentType<P>>);
    return <Part {...props} />;
  }
  // Always the same tree (boundary, suspense, part), loaded or not, so the part never remounts.
  function Part(props: P) {
    return (
      <LoadBoundary what={what}>
        <Suspense fallback={typeof fallback === 'function' ? fallback(props) : fallback}>
          <Loaded {...props} />
        </Suspense>
      </LoadBoundary>
    );
  }
  Part.displayName = name;
  return { Part, preload };
}

function isThenable<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

class LoadBoundary extends Component<{ what: LoadPart; children: ReactNode }, { error: unknown }> {
  override state = { error: null as unknown };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  override render() {
    const { error } = this.state;
    if (error === null) return this.props.children;
    return <LoadError what={this.props.what} reason={error instanceof Error ? error.message : String(error)} />;
  }
}

function LoadError({ what, reason }: { what: LoadPart; reason: string }) {
  const m = useMessages().load;
  return (
    <p role="alert" data-part="load-error">
      {m.failed(partName(m, what), reason)}
    </p>
  );
}

/** A part's name in the surface's words (a key of `messages.load.parts`), else `what` as it is. */
export function partName(m: ChatSurfaceMessages['load'], what: LoadPart): string {
  return Object.hasOwn(m.parts, what) ? m.parts[what as keyof typeof m.parts] : what;
}

/** The line a slash view shows while its code loads. */
export function Opening() {
  return (
    <p role="status" data-part="slash-loading">
      {useMessages().load.opening}
    </p>
  );
}
