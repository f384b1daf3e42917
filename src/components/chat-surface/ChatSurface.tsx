import { useCallback, useEffect, useMemo, useState, type FocusEvent } from 'react';
import { threadFacts } from '../../hooks/threadFacts';
import { useThreadSelector } from '../../hooks/useThread';
import { useControllableState } from '../../hooks/useControllableState';
import { CastMember } from '../cast/CastMember';
import { QueuedMessages } from '../queue/QueuedMessages';
import { CastRow } from '../cast/CastRow';
import { Composer } from '../composer/Composer';
import { whenIdle } from '../../hooks/whenIdle';
import { Markdown } from '../markdown/Markdown';
import { CapabilityRenderersProvider } from '../invocation-card/renderers';
import type { CapabilityRenderers } from '../invocation-card/rendererTypes';
// The rows a turn adds load on first use, as in the transcript (../rows/deferredRows).
import { ApprovalRow, ArgsSummary, preloadTurnRows, ProposalRow, QuestionRow, SkillOfferRow, StandingRow, ViolationRow } from '../rows/deferredRows';
import { Slash } from '../slash/Slash';
import { Suggestions } from '../suggestions/Suggestions';
import { ErrorRow } from '../transcript/ErrorRow';
import { MessageRow } from '../transcript/MessageRow';
import { Transcript, type TranscriptProps } from '../transcript/Transcript';
import { TranscriptJump } from '../transcript/TranscriptJump';
import { TranscriptRow } from '../transcript/TranscriptRow';
import { TranscriptWelcome } from '../transcript/TranscriptWelcome';
import { ChatSurfaceRoot, type ChatSurfaceRootProps } from './ChatSurfaceRoot';
import { DriverBadge } from './DriverBadge';
import { SurfaceQueryClient } from './SurfaceQueryClient';
import { readThreadList, threadName, writeThreadList } from './threadList';
import { ThreadNavigationContext, type ThreadNavigation } from './threadNavigation';
import { ServerThreadNames, ThreadsPanel } from './ThreadsPanel';

export interface ChatSurfaceProps extends Omit<ChatSurfaceRootProps, 'children' | 'threadId'> {
  /** The thread shown, when the host controls it. */
  threadId?: string;
  /** The first thread when uncontrolled. @default 'main' */
  defaultThreadId?: string;
  /** Told when the user starts a new thread (`/clear`) or switches back to an earlier one. */
  onThreadChange?: (threadId: string) => void;
  /** Called by Navigate skills with their target (a route or URL of the host app). */
  onNavigate?: (target: string) => void;
  /** Placeholder of the message box. @default messages.composer.placeholder ('Ask anything…') */
  placeholder?: string;
  /** Which rows are in the DOM: every row up to 100, then only those near the viewport (`'auto'`); always only those (`true`); always every row (`false`). @default 'auto' */
  virtualize?: boolean | 'auto';
  /** Renders the transcript row at an index (see `Transcript`). @default (index) => <TranscriptRow index={index} /> */
  renderRow?: TranscriptProps['renderRow'];
  /**
   * Where the browser keeps this surface's threads (localStorage key), so a reload returns to
   * the thread the user was on and the switcher still lists the others; `false` keeps nothing.
   * @default 'chatsurface:threads:' + the landmark label
   */
  threadStorageKey?: string | false;
  /** Starter suggestions the welcome shows before the first message (each fills and sends the message). */
  starters?: readonly string[];
  /** The welcome's heading before the first message. @default messages.welcome.title ('What can I help with?') */
  welcome?: string;
  /**
   * The host's own component for the body of a capability's cards, by capability name: it gets
   * the typed arguments, the structured result, the state and progress; the card keeps its status
   * line, Cancel and Details around it (see `CapabilityRenderer`, `InvocationCard.Defaults`).
   * @example
   * <ChatSurface workspace={workspace} renderers={{ 'records.list': RecordsTable }} />
   */
  renderers?: CapabilityRenderers;
}

/**
 * The assembled chat: driver badge and thread switcher, transcript, cast row,
 * suggested next verbs, the slash panels, the status row (harness, agent,
 * model) and the composer with its slash combobox (with Stop while a turn
 * runs), built from the same parts a host can recompose
 * (`ChatSurface.Root`, `ChatSurface.Transcript`, `Slash.Root`, …). Provides a
 * React Query client when the host has none (made when a part first runs a node query, or at
 * once when the host gives `renderers`).
 * @example
 * const workspace = createLocalWorkspace({ capabilities: [add] });
 * <ChatSurface workspace={workspace} activeView={{ kind: 'record_list' }} />
 */
function ChatSurfaceAssembled({
  placeholder,
  virtualize,
  renderRow,
  threadId: threadProp,
  defaultThreadId = 'main',
  onThreadChange,
  onNavigate,
  threadStorageKey,
  starters,
  welcome,
  renderers,
  ...props
}: ChatSurfaceProps) {
  const storageKey = threadStorageKey === undefined ? `chatsurface:threads:${props.label ?? 'Chat'}` : threadStorageKey;
  const [stored] = useState(() => readThreadList(storageKey));
  const [threadId, setThreadId] = useControllableState({ value: threadProp, defaultValue: stored?.current ?? defaultThreadId, onChange: onThreadChange });
  const [known, setKnown] = useState<readonly string[]>(() => stored?.threads ?? [threadId]);
  const [names, setNames] = useState<Record<string, string>>(() => stored?.names ?? {});
  const threads = known.includes(threadId) ? known : [...known, threadId];
  const newThread = useCallback(() => {
    const id = freshThreadId();
    setKnown((list) => [...(list.includes(threadId) ? list : [...list, threadId]), id]);
    setThreadId(id);
  }, [threadId, setThreadId]);
  // A thread's name is its first message, unless it has one already (the store's title, a rename).
  const nameThread = useCallback((id: string, name: string) => setNames((all) => (all[id] !== undefined ? all : { ...all, [id]: name })), []);
  // Sub-threads (issue 15): listed after their parent, reachable from their rows and back.
  const [parents, setParents] = useState<Record<string, string>>(() => stored?.parents ?? {});
  const linkThreads = useCallback((links: readonly SubThreadLink[]) => {
    if (!links.length) return;
    setKnown((list) => {
      const missing = links.flatMap((l) => [l.parent, l.child]).filter((id, i, all) => !list.includes(id) && all.indexOf(id) === i);
      return missing.length ? [...list, ...missing] : list;
    });
    setParents((all) => (links.every((l) => all[l.child] === l.parent) ? all : { ...all, ...Object.fromEntries(links.map((l) => [l.child, l.parent])) }));
    setNames((all) => {
      const fresh = links.filter((l) => l.name && all[l.child] === undefined);
      return fresh.length ? { ...all, ...Object.fromEntries(fresh.map((l) => [l.child, threadName(l.name!)])) } : all;
    });
  }, []);
  const navigation = useMemo<ThreadNavigation>(
    () => ({
      open: (id) => {
        setKnown((list) => (list.includes(id) ? list : [...list, id]));
        setThreadId(id);
      },
      nameOf: (id) => names[id],
    }),
    [names, setThreadId],
  );
  // The store's thread list, when the workspace keeps one: the same threads in every browser of the user.
  const serverThreads = props.workspace?.threads;
  const [listRead, setListRead] = useState(0);
  const takeServerThreads = useCallback((list: readonly { id: string; title: string }[]) => {
    // Oldest first, as the switcher lists them; the store's titles win (a rename elsewhere shows here).
    const ids = list.map((t) => t.id).reverse();
    setKnown((known) => (ids.every((id) => known.includes(id)) ? known : [...ids.filter((id) => !known.includes(id)), ...known]));
    const titled = list.filter((t) => t.title).map((t) => [t.id, threadName(t.title)] as const);
    setNames((all) => (titled.every(([id, name]) => all[id] === name) ? all : { ...all, ...Object.fromEntries(titled) }));
  }, []);
  const forgetThread = useCallback(
    (id: string) => {
      // The thread shown is gone: a new one takes its place.
      const fresh = id === threadId ? freshThreadId() : null;
      setKnown((list) => [...list.filter((known) => known !== id), ...(fresh ? [fresh] : [])]);
      setNames(({ [id]: _gone, ...rest }) => rest);
      if (fresh) setThreadId(fresh);
    },
    [threadId, setThreadId],
  );
  useEffect(() => writeThreadList(storageKey, { threads: [...threads], current: threadId, names, parents }), [storageKey, threads.join('\u0000'), threadId, names, parents]);
  const { onFocus } = props;
  const handleFocus = useCallback(
    (event: FocusEvent<HTMLElement>) => {
      onFocus?.(event);
      preloadTurnRowsWhenIdle();
    },
    [onFocus],
  );
  return (
    // React Query's client is made when a part first runs a node query (the slash skills once the
    // user steps in), at once when the host gives renderers of its own (they may run queries).
    <SurfaceQueryClient eager={Boolean(renderers)}>
      <ChatSurfaceRoot {...props} threadId={threadId} onFocus={handleFocus}>
        <CapabilityRenderersProvider renderers={renderers}>
        <ThreadNavigationContext.Provider value={navigation}>
        <Slash.Root onNewThread={newThread} {...(onNavigate ? { onNavigate } : {})}>
          <header data-part="header">
            <DriverBadge />
            <Slash.ThreadSwitcher threads={threads} names={names} parents={parents} value={threadId} onValueChange={setThreadId} />
            {serverThreads ? <ThreadsPanel threads={serverThreads} value={threadId} onValueChange={navigation.open} onDelete={forgetThread} onClose={() => setListRead((n) => n + 1)} /> : null}
          </header>
          {serverThreads ? <ServerThreadNames threads={serverThreads} threadId={threadId} read={listRead} onThreads={takeServerThreads} /> : null}
          <ThreadNamer threadId={threadId} onName={nameThread} />
          <SubThreadLinker threadId={threadId} onLinks={linkThreads} />
          <Transcript {...(virtualize !== undefined ? { virtualize } : {})} {...(renderRow ? { renderRow } : {})} {...(starters ? { starters } : {})} {...(welcome !== undefined ? { welcome } : {})} />
          <CastRow />
          <QueuedMessages />
          <Suggestions.Root />
          <Slash.Panels />
          <Slash.StatusRow />
          <Composer.Root>
            <Composer.Attach />
            <Composer.Input {...(placeholder !== undefined ? { placeholder } : {})} />
            <Composer.Stop />
            <Composer.Dictate />
            <Composer.Send />
          </Composer.Root>
        </Slash.Root>
        </ThreadNavigationContext.Provider>
        </CapabilityRenderersProvider>
      </ChatSurfaceRoot>
    </SurfaceQueryClient>
  );
}
ChatSurfaceAssembled.displayName = 'ChatSurface';

/** A new thread's id: unique enough within one user's threads. */
const freshThreadId = () => `thread-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

let turnRowsAsked = false;
/**
 * The rows a turn adds (their code is one chunk, see ../rows/deferredRows) are fetched when the
 * browser is idle once the user is in the surface (focus on the message box, a chip, a row): while
 * they write, so the rows are there before the reply that brings them. Not when the thread gets
 * its first message: the chunk then came in while that reply streamed, and its parsing and
 * evaluation cost the reply frames (a 500-token reply took half as long again). A turn that
 * nobody started here (a host's own send) loads it on first use: such a row says what is loading
 * in its own frame for those few milliseconds. A failed fetch is tried again on the next focus.
 */
function preloadTurnRowsWhenIdle(): void {
  if (turnRowsAsked) return;
  turnRowsAsked = true;
  whenIdle(() =>
    void preloadTurnRows().catch(() => {
      turnRowsAsked = false;
    }),
  );
}

/** Names the shown thread after its first message, for the thread switcher. Renders nothing. */
function ThreadNamer({ threadId, onName }: { threadId: string; onName: (id: string, name: string) => void }) {
  const first = useThreadSelector((t) => threadFacts(t).firstUserText);
  const skill = useThreadSelector((t) => threadFacts(t).firstUserSkill);
  useEffect(() => {
    // A skill's message (its `skill` and the task) is named as the user typed it: `/review the task`.
    const name = skill !== null && first !== null ? `${skill} ${first.trim()}` : first;
    if (name?.trim()) onName(threadId, threadName(name));
  }, [first, skill, threadId, onName]);
  return null;
}

interface SubThreadLink {
  parent: string;
  child: string;
  name?: string;
}

/** Tells the surface of the shown thread's sub-threads, and of its parent when it is one. Renders nothing. */
function SubThreadLinker({ threadId, onLinks }: { threadId: string; onLinks: (links: readonly SubThreadLink[]) => void }) {
  // A string, so the selector's result compares by value.
  const key = useThreadSelector((t) => threadFacts(t).subThreadKey);
  useEffect(() => {
    const links = key
      .split('\u0000')
      .filter(Boolean)
      .map((entry) => {
        const [kind, id, name] = entry.split('\u0001') as [string, string, string];
        return kind === 'c' ? { parent: threadId, child: id, name } : { parent: id, child: threadId };
      });
    onLinks(links);
  }, [key, threadId, onLinks]);
  return null;
}

export const ChatSurface = Object.assign(ChatSurfaceAssembled, {
  Root: ChatSurfaceRoot,
  DriverBadge,
  Transcript,
  TranscriptRow,
  TranscriptJump,
  TranscriptWelcome,
  MessageRow,
  Markdown,
  ErrorRow,
  ProposalRow,
  ApprovalRow,
  QuestionRow,
  ViolationRow,
  StandingRow,
  SkillOfferRow,
  ArgsSummary,
  CastRow,
  CastMember,
  Suggestions,
  Slash,
  Composer,
});
