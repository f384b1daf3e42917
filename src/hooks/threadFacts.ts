import { isWaiting, type Row, type ThreadState } from '../runtime/fold';

/** What the surface reads from the whole of a thread's rows (each of these needs every row). */
export interface ThreadFacts {
  /** Index of the newest user message, or -1. */
  lastUser: number;
  /** Index of the newest row waiting for the user's decision (pending approval, proposal, question or skill offer), or -1. */
  waiting: number;
  /** The first user message's text (a skill's message: its task), or null. */
  firstUserText: string | null;
  /** The skill the first user message loads, by its slash name (`/review`), or null. */
  firstUserSkill: string | null;
  /** How many skill offers were saved. */
  savedSkillOffers: number;
  /** The thread's sub-thread links, one entry per `subthread` / `subthread_origin` row (a string, so it compares by value). */
  subThreadKey: string;
}

const cache = new WeakMap<ThreadState, ThreadFacts>();

/**
 * What the facts were found from, kept per thread lineage (its `ids` array, which the fold
 * appends to in place, as its row index is): the rows last read, by reference, and where the
 * user messages, the pending decisions and the sub-thread rows are. Rows are never removed or
 * reordered and a changed row is a new object, so the next state is read by comparing each row
 * with the one before (a pointer check) and folding in only the rows that differ.
 */
interface Scan {
  rows: Row[];
  lastUser: number;
  firstUser: number;
  savedSkillOffers: number;
  /** Indexes of the rows waiting for a decision, ascending. */
  pending: number[];
  /** Indexes of the `subthread` / `subthread_origin` rows, ascending. */
  sub: number[];
}

const scans = new WeakMap<readonly string[], Scan>();

/** A pending decision (the fold's `isWaiting`), or a skill offer not yet answered: the user is asked about both. */
const isPending = (row: Row | undefined): boolean => !!row && (isWaiting(row) || (row.kind === 'skill_offer' && row.status === 'pending'));
const isSaved = (row: Row | undefined): boolean => row?.kind === 'skill_offer' && row.status === 'saved';

/** Puts `i` into an ascending list (rows mostly come at the end). */
function insert(list: number[], i: number): void {
  if (!list.length || list[list.length - 1]! < i) list.push(i);
  else if (!list.includes(i)) {
    list.push(i);
    list.sort((a, b) => a - b);
  }
}

function remove(list: number[], i: number): void {
  const at = list.lastIndexOf(i);
  if (at >= 0) list.splice(at, 1);
}

/** Folds the row now at `i` (it was `before`) into the scan. */
function take(scan: Scan, i: number, before: Row | undefined, row: Row): void {
  if (isSaved(before)) scan.savedSkillOffers--;
  if (isSaved(row)) scan.savedSkillOffers++;
  if (isPending(before) && !isPending(row)) remove(scan.pending, i);
  if (isPending(row) && !isPending(before)) insert(scan.pending, i);
  if (row.kind === 'user') {
    if (i > scan.lastUser) scan.lastUser = i;
    if (scan.firstUser < 0 || i < scan.firstUser) scan.firstUser = i;
  }
  if ((row.kind === 'subthread' || row.kind === 'subthread_origin') && before?.kind !== row.kind) insert(scan.sub, i);
  scan.rows[i] = row;
}

/**
 * The facts of a thread state, kept per state: the selectors of several components (and
 * zustand's snapshot checks, which run each selector again) read them on every commit. A new
 * state of the same thread is read from the last one's scan, so an appended message costs a
 * pointer check per row, not the full walk. A state never changes once published, so the facts
 * stay true for it.
 * @example
 * const waiting = useThreadSelector((t) => threadFacts(t).waiting);
 */
export function threadFacts(thread: ThreadState): ThreadFacts {
  const known = cache.get(thread);
  if (known) return known;
  const rows = thread.rows;
  let scan = scans.get(thread.ids);
  // An earlier, shorter state of a thread already read further: read it on its own.
  const own = !!scan && rows.length < scan.rows.length;
  if (!scan || own) {
    scan = { rows: [], lastUser: -1, firstUser: -1, savedSkillOffers: 0, pending: [], sub: [] };
    if (!own) scans.set(thread.ids, scan);
  }
  const seen = scan.rows;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    if (row !== seen[i]) take(scan, i, seen[i], row);
  }
  let subThreadKey = '';
  for (const i of scan.sub) {
    const row = rows[i]!;
    if (row.kind === 'subthread') subThreadKey += `c\u0001${row.id}\u0001${row.title} ${row.task}\u0000`;
    else subThreadKey += `p\u0001${row.id}\u0001\u0000`;
  }
  const first = scan.firstUser >= 0 ? rows[scan.firstUser] : undefined;
  const facts: ThreadFacts = {
    lastUser: scan.lastUser,
    waiting: scan.pending.length ? scan.pending[scan.pending.length - 1]! : -1,
    firstUserText: first?.kind === 'user' ? first.text : null,
    firstUserSkill: first?.kind === 'user' ? (first.skill ?? null) : null,
    savedSkillOffers: scan.savedSkillOffers,
    subThreadKey,
  };
  cache.set(thread, facts);
  return facts;
}
