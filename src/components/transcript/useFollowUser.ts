import { useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { useChatSurface } from '../../hooks/context';
import { threadFacts } from '../../hooks/threadFacts';
import { useThreadSelector } from '../../hooks/useThread';
import type { Row, ThreadState } from '../../runtime/fold';
import { useMessages } from '../messages/context';
import type { ChatSurfaceMessages } from '../messages/defaults';

/** What a waiting decision is called where it is announced. */
function decisionName(kind: Row['kind'] | undefined, m: ChatSurfaceMessages['transcript']): string {
  if (kind === 'approval') return m.waitingApproval;
  if (kind === 'proposal') return m.waitingProposal;
  if (kind === 'question') return m.waitingQuestion;
  if (kind === 'skill_offer') return m.waitingSkillOffer;
  return m.waitingDecision;
}

/** Id of the newest user message, or null: by id, so the same message at a new index (a replayed history's newest turns shown first, then the whole history) is not a new one. */
const lastUserId = (thread: ThreadState): string | null => {
  const at = threadFacts(thread).lastUser;
  return at >= 0 ? (thread.rows[at]?.id ?? null) : null;
};

/** Index of the newest user message, or -1. */
const lastUserIndex = (thread: ThreadState): number => threadFacts(thread).lastUser;

/** Index of the newest row waiting for a decision, or -1. */
const waitingIndex = (thread: ThreadState): number => threadFacts(thread).waiting;

/** Far above: more than this many viewport heights from the end. The reader is reading history; do not move them. */
const FAR_SCREENS = 1.5;

export interface FollowUser {
  /** The waiting decision's index, when it is out of the reader's view and they were left where they read. */
  waiting: number;
  /** Words for the live region: what just came to wait for the user. */
  announcement: string;
}

/**
 * The transcript follows the user, not only the stream: their own message brings the view back
 * to the end (re-pin), and a row that waits for their decision is scrolled into view and
 * announced, unless they are reading far above (then the caller's "Jump to" says it waits).
 * The history replayed on mount moves nothing.
 */
export function useFollowUser({
  scrollRef,
  jumpRef,
  revealRef,
  repin,
}: {
  scrollRef: RefObject<HTMLElement | null>;
  jumpRef: RefObject<() => void>;
  revealRef: RefObject<(index: number) => void>;
  repin: () => void;
}): FollowUser {
  const { store } = useChatSurface();
  const user = useThreadSelector(lastUserId);
  const userAt = useThreadSelector(lastUserIndex);
  const waiting = useThreadSelector(waitingIndex);
  const kind = useThreadSelector((t) => (waiting >= 0 ? t.rows[waiting]?.kind : undefined));
  const id = useThreadSelector((t) => (waiting >= 0 ? t.rows[waiting]?.id : undefined));
  const seenUser = useRef({ id: user, index: userAt });
  // The newest decision seen: by id, so the same decision at a new index (a replayed history's
  // newest turns shown first, then the whole history above them) is not announced again.
  const seenWaiting = useRef<{ id: string | undefined; index: number }>({ id, index: waiting });
  const [announced, setAnnounced] = useState('');
  const m = useMessages().transcript;
  // The id of the waiting decision the reader was left away from (far above), else null.
  const [left, setLeft] = useState<string | null>(null);

  useLayoutEffect(() => {
    const seen = seenUser.current;
    // A message that came after the one seen (which is still in its place): not another version
    // of the thread shown instead of it. Switching a version keeps the view where the reader is.
    if (user !== null && user !== seen.id && (seen.id === null || (userAt > seen.index && store.getState().thread.rows[seen.index]?.id === seen.id))) {
      jumpRef.current();
      repin();
    }
    seenUser.current = { id: user, index: userAt };
  }, [user, userAt, store, jumpRef, repin]);

  useLayoutEffect(() => {
    const seen = seenWaiting.current;
    const same = waiting >= 0 && id === seen.id;
    const fresh = waiting > seen.index && !same;
    if (same || waiting > seen.index) seenWaiting.current = { id, index: waiting };
    if (waiting < 0) {
      setLeft(null);
      setAnnounced('');
      return;
    }
    if (!fresh) return;
    setAnnounced(decisionName(kind, m));
    const el = scrollRef.current;
    const distance = el ? el.scrollHeight - el.scrollTop - el.clientHeight : 0;
    if (el && distance > FAR_SCREENS * el.clientHeight) {
      setLeft(id ?? null);
      return;
    }
    setLeft(null);
    revealRef.current(waiting);
  }, [waiting, id, kind, scrollRef, revealRef, m]);

  return { waiting: waiting >= 0 && left !== null && left === id ? waiting : -1, announcement: announced };
}
