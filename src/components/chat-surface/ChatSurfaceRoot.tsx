import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ComponentPropsWithRef, type RefObject } from 'react';
import { ChatSurfaceContext, type ChatSurfaceContextValue } from '../../hooks/context';
import { createThreadStore } from '../../hooks/threadStore';
import type { ActiveView } from '../../runtime/events';
import type { WorkspaceAdapter } from '../../workspace/types';
import { defaultMessages, type MessagesOverride } from '../messages/defaults';
import { MessagesProvider } from '../messages/context';
import { mergeMessages } from '../messages/merge';
import { reasonOf } from '../messages/reason';
import { MessageQueueContext, type MessageQueueContextValue } from '../queue/context';
import { createMessageQueue, type MessageQueue } from '../queue/queueStore';
import { runQueue } from '../queue/runQueue';
import { noteUserAction } from '../../hooks/userAction';
import { containerHasNoHeight } from './containerSize';
import { hostTheme, type ResolvedTheme } from './hostTheme';

export interface ChatSurfaceRootProps extends ComponentPropsWithRef<'section'> {
  /** The host's workspace: the only thing the surface talks to. */
  workspace: WorkspaceAdapter;
  /** Which thread to show. @default 'main' */
  threadId?: string;
  /**
   * Colour scheme. `host` follows the page around the surface (its CSS `color-scheme` or
   * `<meta name="color-scheme">`; light when it declares none); `system` follows the user's
   * preference. @default 'host'
   */
  theme?: 'host' | 'light' | 'dark' | 'system';
  /** The name of the surface's landmark; give each surface on a page its own. @default messages.surface.label ('Chat') */
  label?: string;
  /**
   * The surface's words in place of the English defaults, part by part (`{ composer: { send: 'Senden' } }`);
   * what is left out stays English. Define the object once (outside the component): a new one on
   * every render gives every part new words to render.
   */
  messages?: MessagesOverride;
  /**
   * The language of the surface (a BCP 47 tag: `de`, `ar-EG`), for plurals, numbers and dates, and
   * its `lang` attribute. @default the `lang` of the page around it, else 'en'
   */
  locale?: string;
  /**
   * Writing direction: `rtl` lays the surface out right to left. @default inherited from the page
   * (the `dir` of the element around it)
   */
  dir?: 'ltr' | 'rtl' | 'auto';
  /** What the user is looking at in the host app (e.g. `{ kind: 'record_list' }`); a change is told to the workspace and re-keys the suggestions. */
  activeView?: ActiveView;
}

/**
 * Provides the workspace and the thread's store to every part, and scopes the theme.
 * @example
 * <ChatSurfaceRoot workspace={workspace}><Transcript /><Composer.Root>…</Composer.Root></ChatSurfaceRoot>
 */
export function ChatSurfaceRoot({ workspace, threadId = 'main', theme = 'host', label: labelProp, messages, locale, activeView, children, ref, ...props }: ChatSurfaceRootProps) {
  if (!workspace || typeof workspace.subscribe !== 'function') {
    throw new Error('<ChatSurface> needs a `workspace` prop: pass createLocalWorkspace({ capabilities }) or your own WorkspaceAdapter.');
  }
  // Loading until the workspace's replay is in (in the layout effect below, before the first
  // paint): the first render shows neither the welcome nor rows it would replace at once.
  const store = useMemo(() => createThreadStore(undefined, { replaying: true }), [workspace, threadId]);


  useIsomorphicLayoutEffect(() => {
    const unsubscribe = workspace.subscribe(threadId, store.receive, { since: store.getState().thread.appliedUpTo });
    // The history the workspace replays on subscribe is applied now, before the first paint
    // (no empty flash, no frame of waiting); live events then batch once per frame.
    store.flush();
    return unsubscribe;
  }, [workspace, threadId, store]);

  // Compared by value (viewKey stands for activeView): a host may pass a fresh object on every render.
  const viewKey = activeView ? JSON.stringify([activeView.kind, activeView.id ?? null, activeView.title ?? null]) : null;
  useEffect(() => {
    if (activeView) workspace.setView({ threadId, view: activeView });
  }, [workspace, threadId, viewKey]);

  // The section, for the hooks below to read in their layout effects (a ref, not state: setting
  // state from the ref would render the surface again inside its first commit).
  const section = useRef<HTMLElement | null>(null);
  const setRef = useCallback(
    (node: HTMLElement | null) => {
      section.current = node;
      if (typeof ref === 'function') ref(node);
      else if (ref) ref.current = node;
    },
    [ref],
  );
  const resolved = useHostTheme(theme, section);
  const label = labelProp ?? mergeMessages(defaultMessages, messages).surface.label;
  const landmark = useUniqueLabel(label, section);
  const language = useHostLocale(locale, section);
  const value = useMemo<ChatSurfaceContextValue>(() => ({ workspace, store, threadId, label: landmark }), [workspace, store, threadId, landmark]);
  const size = useDefaultSize(section);
  const queue = useQueue(workspace, threadId, store, messages);

  return (
    <ChatSurfaceContext.Provider value={value}>
      <MessageQueueContext.Provider value={queue}>
      <MessagesProvider messages={messages} locale={language}>
        <section aria-label={landmark} lang={locale} {...props} ref={setRef} data-chat-surface="" data-theme={resolved} data-size={size}>
          {children}
        </section>
      </MessagesProvider>
      </MessageQueueContext.Provider>
    </ChatSurfaceContext.Provider>
  );
}
ChatSurfaceRoot.displayName = 'ChatSurface.Root';

/**
 * The shown thread's queue of messages sent while a reply ran, and the runner that sends them when
 * it ends. Each thread keeps its own while the surface lives; one not shown waits.
 */
function useQueue(workspace: WorkspaceAdapter, threadId: string, store: ReturnType<typeof createThreadStore>, messages: MessagesOverride | undefined): MessageQueueContextValue {
  const queues = useMemo(() => new Map<string, MessageQueue>(), [workspace]);
  let queue = queues.get(threadId);
  if (!queue) queues.set(threadId, (queue = createMessageQueue()));
  const words = useMemo(() => mergeMessages(defaultMessages, messages), [messages]);
  const runner = useRef<ReturnType<typeof runQueue> | null>(null);
  useEffect(() => {
    const running = runQueue({
      queue,
      thread: store,
      send: (text) => {
        noteUserAction(store);
        return workspace.send({ threadId, text });
      },
      stop: (id) => workspace.cancel({ threadId, id }),
      reasonOf: (error) => reasonOf(error, words).replace(/\.$/, ''),
    });
    runner.current = running;
    return () => {
      running.dispose();
      if (runner.current === running) runner.current = null;
    };
  }, [queue, store, workspace, threadId, words]);
  return useMemo(() => ({ queue, sendNow: (id: string) => runner.current?.sendNow(id) }), [queue]);
}

const useIsomorphicLayoutEffect = typeof document === 'undefined' ? useEffect : useLayoutEffect;

/** theme="host": the page's colour scheme, read after mount and again when the page changes it. */
function useHostTheme(theme: NonNullable<ChatSurfaceRootProps['theme']>, section: RefObject<HTMLElement | null>): ResolvedTheme {
  const [fromHost, setFromHost] = useState<ResolvedTheme>('light');
  useIsomorphicLayoutEffect(() => {
    const element = section.current;
    if (theme !== 'host' || !element) return;
    const read = () => setFromHost(hostTheme(element));
    read();
    const doc = element.ownerDocument;
    const observer = new MutationObserver(read);
    observer.observe(doc.documentElement, { attributes: true, attributeFilter: ['class', 'style', 'data-theme', 'data-color-scheme'] });
    observer.observe(doc.head, { childList: true, subtree: true, attributes: true, attributeFilter: ['content'] });
    return () => observer.disconnect();
  }, [theme, section]);
  return theme === 'host' ? fromHost : theme;
}

/** The surface's language: `locale`, else the nearest `lang` around the section (read after mount), else 'en'. */
function useHostLocale(locale: string | undefined, section: RefObject<HTMLElement | null>): string {
  const [fromHost, setFromHost] = useState(() => (typeof document === 'undefined' ? '' : document.documentElement.lang));
  useIsomorphicLayoutEffect(() => {
    if (locale === undefined && section.current) setFromHost(section.current.closest('[lang]')?.getAttribute('lang') ?? '');
  }, [locale, section]);
  return validLocale(locale) ?? validLocale(fromHost) ?? 'en';
}

/** The tag when `Intl` takes it (a page's `lang="english"` would make every plural throw), else null. */
function validLocale(tag: string | undefined): string | null {
  if (!tag) return null;
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? null;
  } catch {
    return null;
  }
}

/**
 * 'default' when the container gives the surface no height to fill (its height follows its content,
 * or it only has a min-height): the surface then takes --cs-default-height and scrolls inside.
 */
function useDefaultSize(section: RefObject<HTMLElement | null>): 'fill' | 'default' {
  const [size, setSize] = useState<'fill' | 'default'>('fill');
  const last = useRef(size);
  useIsomorphicLayoutEffect(() => {
    const element = section.current;
    if (!element) return;
    // False while the surface has no box to measure (mounted inside a hidden tab or drawer).
    const probe = () => {
      if (element.getClientRects().length === 0) return false;
      const next = containerHasNoHeight(element) ? 'default' : 'fill';
      if (next !== last.current) setSize((last.current = next));
      return true;
    };
    const view = element.ownerDocument.defaultView;
    // The first probe once the frame is laid out (a ResizeObserver's first report, before paint),
    // not in this commit: the probe reads layout, and inside the commit that read is the page's
    // first full layout, tens of ms in the mount's task. A surface with no box yet is probed on
    // the report that gives it one. Without a ResizeObserver, at once.
    let first: ResizeObserver | null = null;
    if (view && typeof view.ResizeObserver === 'function') {
      first = new view.ResizeObserver(() => {
        if (!probe()) return;
        first?.disconnect();
        first = null;
      });
      first.observe(element);
    } else probe();
    view?.addEventListener('resize', probe);
    return () => {
      first?.disconnect();
      view?.removeEventListener('resize', probe);
    };
  }, [section]);
  return size;
}

/** The labels of the surfaces mounted in each document, so two surfaces never share a landmark name. */
const mounted = new WeakMap<Document, Map<HTMLElement, string>>();

/** `label`, or `label 2`, `label 3`… when another surface on the page already has it. */
function useUniqueLabel(label: string, section: RefObject<HTMLElement | null>): string {
  const [unique, setUnique] = useState(label);
  useIsomorphicLayoutEffect(() => {
    const element = section.current;
    if (!element) return;
    const doc = element.ownerDocument;
    const labels = mounted.get(doc) ?? new Map<HTMLElement, string>();
    mounted.set(doc, labels);
    const taken = new Set([...labels].filter(([other]) => other !== element).map(([, name]) => name));
    let name = label;
    for (let n = 2; taken.has(name); n++) name = `${label} ${n}`;
    labels.set(element, name);
    setUnique(name);
    return () => {
      labels.delete(element);
    };
  }, [label, section]);
  return unique;
}
