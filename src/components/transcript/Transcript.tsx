import { useCallback, useEffect, useMemo, useRef, useState, type ComponentPropsWithRef, type ReactNode, type RefObject } from 'react';
import { useChatSurface } from '../../hooks/context';
import { onUserAction } from '../../hooks/userAction';
import { useRowIds, useThreadReplaying } from '../../hooks/useThread';
import { FlowRows } from './FlowRows';
import { TranscriptJump } from './TranscriptJump';
import { TranscriptRow } from './TranscriptRow';
import { TranscriptWelcome } from './TranscriptWelcome';
import { useFollowUser } from './useFollowUser';
import { useVirtualRowsPart } from './loadVirtualRows';
import type { RowsProps } from './rowsProps';
import { useMessages } from '../messages/context';

export interface TranscriptProps extends ComponentPropsWithRef<'div'> {
  /** Shown while the thread has no rows, instead of the welcome (heading, line and starters). */
  emptyText?: string;
  /** The welcome's heading while the thread has no rows. @default messages.welcome.title ('What can I help with?') */
  welcome?: string;
  /** Starter messages the welcome offers (each sends its text). */
  starters?: readonly string[];
  /**
   * Which rows are in the DOM. `'auto'`: every row while the thread has at most FLOW_MAX (100),
   * only the rows near the viewport once it has more; `true`: only those near the viewport,
   * always; `false`: every row, always (e.g. for find-in-page or printing a long thread).
   * @default 'auto'
   */
  virtualize?: boolean | 'auto';
  /** A row's height in px before it is measured. @default 88 */
  estimateRowHeight?: number;
  /** Renders the row at an index. @default (index) => <TranscriptRow index={index} /> */
  renderRow?: (index: number) => ReactNode;
}

const defaultRenderRow = (index: number) => <TranscriptRow index={index} />;

/**
 * Rows a thread holds and still has all of them in the page (`virtualize="auto"`). Below it the
 * rows are in normal flow (off-screen ones skip layout and paint through `content-visibility`),
 * which costs a streaming reply less per frame than keeping a virtualiser's positions, sizes and
 * scroll offset up to date; above it, only the rows near the viewport are in the DOM.
 */
export const FLOW_MAX = 100;

/** Rows from which the virtualiser's code is fetched (on use: a page of short threads never loads it), ahead of FLOW_MAX. */
const FETCH_VIRTUAL_AT = 60;

/**
 * Whether the rows are virtualised (`virtualize="auto"`): a thread that comes with more than
 * FLOW_MAX rows (or a long history still loading) is from its first render; one that grows past
 * FLOW_MAX goes over once the reader is at the end and no row holds the focus, so neither their
 * place nor their focus moves (the rows are drawn anew). Once virtualised, a thread stays so.
 */
function useVirtualRows(virtualize: boolean | 'auto', rows: number, replaying: boolean, atEnd: boolean, focusIn: () => boolean): boolean {
  const { threadId } = useChatSurface();
  const last = useRef<{ threadId: string; virtual: boolean; rows: number } | null>(null);
  if (virtualize !== 'auto') return virtualize;
  const before = last.current?.threadId === threadId ? last.current : null;
  // (A thread with no rows shown yet decides nothing: it may be the store's first, empty state.)
  const long = rows > FLOW_MAX || (replaying && rows > 0);
  // Rows already drawn in flow move over only when that moves nothing the reader has.
  const virtual = before?.virtual || (long && (!before || before.rows === 0 || (atEnd && !focusIn())));
  last.current = { threadId, virtual, rows };
  return virtual;
}

/**
 * The thread as a log region (`role="log"`, focusable, so arrow keys and Page
 * Up/Down scroll it). Virtualised once the thread is long (`virtualize`); follows new content while the
 * reader is at the end, never moves once they scroll up, and then offers
 * "Jump to latest". The user's own action (a message, a chip, a decision, Retry) brings the view
 * back to the end and follows to its result. Props go to the log element.
 * @example
 * <Transcript virtualize={false} />
 */
export function Transcript({ emptyText, welcome, starters, virtualize = 'auto', estimateRowHeight = 88, renderRow = defaultRenderRow, ref, ...props }: TranscriptProps) {
  const ids = useRowIds();
  const replaying = useThreadReplaying();
  const local = useRef<HTMLDivElement | null>(null);
  const jumpRef = useRef<() => void>(() => {});
  const revealRef = useRef<(index: number) => void>(() => {});
  const [atEnd, setAtEnd] = useState(true);
  // How many rows there were when the reader scrolled up: the rest are "new".
  const count = useRef(ids.length);
  count.current = ids.length;
  const leftAt = useRef(0);
  // What `atEnd` was last set to: a change to the same value (the reader's own message re-pins a
  // log that is already at the end, from a layout effect) sets nothing, so it costs no second
  // commit in the frame that shows the message.
  const atEndNow = useRef(true);
  const onAtEndChange = useCallback((next: boolean) => {
    if (next === atEndNow.current) return;
    atEndNow.current = next;
    if (!next) leftAt.current = count.current;
    setAtEnd(next);
  }, []);
  // A stable ref: an inline one is detached and re-attached on every render, and the rows read it in their layout effects.
  const setRef = useCallback(
    (node: HTMLDivElement | null) => {
      local.current = node;
      if (typeof ref === 'function') ref(node);
      else if (ref) ref.current = node;
    },
    [ref],
  );
  const focusIn = useCallback(() => {
    const active = local.current?.ownerDocument.activeElement;
    return !!active && active !== local.current && !!local.current?.contains(active);
  }, []);
  const virtual = useVirtualRows(virtualize, ids.length, replaying, atEnd, focusIn);
  const { part, failed } = useVirtualRowsPart(virtual || (virtualize === 'auto' && ids.length > FETCH_VIRTUAL_AT));
  // Until the virtualiser is in, the newest rows; if it cannot load, every row in flow (nothing out of reach).
  const Rows = virtual && !failed ? (part?.VirtualRows ?? NewestInFlow) : FlowRows;
  const repin = useCallback(() => onAtEndChange(true), [onAtEndChange]);
  const follow = useFollowUser({ scrollRef: local, jumpRef, revealRef, repin });
  const m = useMessages().transcript;
  // The user's own action (a chip, Approve, Retry, a message or slash command) follows to what
  // comes of it, from wherever the reader was, until they scroll up by themselves.
  const { store } = useChatSurface();
  useEffect(
    () =>
      onUserAction(store, () => {
        jumpRef.current();
        repin();
      }),
    [store, repin],
  );

  return (
    <div data-part="transcript-frame">
      <div
        role="log"
        aria-label={m.label}
        tabIndex={0}
        {...props}
        ref={setRef}
        data-part="transcript"
        data-state={ids.length ? 'filled' : replaying ? 'loading' : 'empty'}
        aria-busy={replaying || undefined}
        data-follow={atEnd ? 'end' : 'paused'}
      >
        {ids.length === 0 ? (
          replaying ? (
            <p data-part="transcript-empty">{m.loading}</p>
          ) : emptyText !== undefined ? (
            <p data-part="transcript-empty">{emptyText}</p>
          ) : (
            <TranscriptWelcome {...(welcome !== undefined ? { title: welcome } : {})} {...(starters ? { starters } : {})} />
          )
        ) : (
          <Rows
            scrollRef={local}
            ids={ids}
            renderRow={renderRow}
            onAtEndChange={onAtEndChange}
            jumpRef={jumpRef}
            revealRef={revealRef}
            estimate={estimateRowHeight}
          />
        )}
      </div>
      {!atEnd && ids.length ? (
        <TranscriptJump
          newCount={Math.max(0, ids.length - leftAt.current)}
          waiting={follow.waiting >= 0}
          onClick={() => {
            if (follow.waiting >= 0) revealRef.current(follow.waiting);
            else {
              jumpRef.current();
              onAtEndChange(true);
            }
            local.current?.focus({ preventScroll: true });
          }}
        />
      ) : null}
      {/* Polite, not a second status landmark: the cast row's status stays the one "status". */}
      <p aria-live="polite" aria-atomic="true" className="cs-visually-hidden" data-part="transcript-announcement">
        {follow.announcement}
      </p>
    </div>
  );
}
Transcript.displayName = 'ChatSurface.Transcript';

/**
 * While the virtualiser's code is on its way (a long thread's first render, before its chunk is
 * in): the newest rows in flow, about a viewport's worth (rows of half the estimated height), where
 * the reader starts. So the first paint waits for nothing and costs what the virtualiser's would
 * (a long history is never all in the DOM); the virtualiser takes their place when it comes (when
 * it cannot, every row is put in flow, so nothing is out of reach).
 */
function NewestInFlow({ ids, renderRow, revealRef, ...props }: RowsProps) {
  const viewport = typeof window === 'undefined' ? 900 : window.innerHeight || 900;
  const shown = Math.min(FLOW_MAX, Math.max(8, Math.ceil(viewport / Math.max(16, props.estimate / 2))));
  const from = Math.max(0, ids.length - shown);
  const newest = useMemo(() => ids.slice(from), [ids, ids.length, from]);
  const renderNewest = useCallback((index: number) => renderRow(index + from), [renderRow, from]);
  const reveal = useRef<(index: number) => void>(() => {});
  useEffect(() => {
    if (!revealRef) return;
    revealRef.current = (index: number) => reveal.current(Math.max(0, index - from));
  }, [revealRef, from]);
  return <FlowRows {...props} ids={newest} renderRow={renderNewest} revealRef={reveal as RefObject<(index: number) => void>} />;
}
