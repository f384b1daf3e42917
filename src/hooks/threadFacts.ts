import type { Row, ThreadState } from '../runtime/fold';

/** What the surface reads from the whole of a thread's rows (each of these needs every row). */
export interface ThreadFacts {
  /** Index of the newest user message, or -1. */
  lastUser: number;
  /** Index of the newest row waiting for the user's decision (pending approval, proposal, question or skill offer), or -1. */
  waiting: number;
  /** The first user message's text, or null. */
  firstUserText: string | null;
  /** How many skill offers were saved. */
  savedSkillOffers: number;
  /** The thread's sub-thread links, one entry per `subthread` / `subthread_origin` row (a string, so it compares by value). */
  subThreadKey: string;
}

/** The rows that wait for the user's decision while pending. */
const DECISION_KINDS = new Set<Row['kind']>(['approval', 'proposal', 'question', 'skill_offer']);

const cache = new WeakMap<ThreadState, ThreadFacts>();

/**
 * The facts of a thread state, found in one pass over its rows and kept per state: the
 * selectors of several components (and zustand's snapshot checks, which run each selector
 * again) read them on every commit, so a long thread is walked once per state, not once per
 * selector call. A state never changes once published, so the facts stay true for it.
 * @example
 * const waiting = useThreadSelector((t) => threadFacts(t).waiting);
 */
export function threadFacts(thread: ThreadState): ThreadFacts {
  const known = cache.get(thread);
  if (known) return known;
  let lastUser = -1;
  let waiting = -1;
  let firstUserText: string | null = null;
  let savedSkillOffers = 0;
  let subThreadKey = '';
  const rows = thread.rows;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    switch (row.kind) {
      case 'user':
        lastUser = i;
        if (firstUserText === null) firstUserText = row.text;
        break;
      case 'subthread':
        subThreadKey += `c\u0001${row.id}\u0001${row.title} ${row.task}\u0000`;
        break;
      case 'subthread_origin':
        subThreadKey += `p\u0001${row.id}\u0001\u0000`;
        break;
      default:
        break;
    }
    if (row.kind === 'skill_offer' && row.status === 'saved') savedSkillOffers++;
    if (DECISION_KINDS.has(row.kind) && 'status' in row && row.status === 'pending') waiting = i;
  }
  const facts: ThreadFacts = { lastUser, waiting, firstUserText, savedSkillOffers, subThreadKey };
  cache.set(thread, facts);
  return facts;
}
