import type { AssistantRow, Row, RowOf } from './rows';
import { hasApplied, initialSeqs, type CastEntry, type FoldSeqs, type ThreadState } from './state';
import { handOn, indexFor, writableInPlace, type RowUndo } from './storage';
import { castOf, endOf, groupReach, reach, relayOut, type PathView } from './shownPath';
import { own, record } from './records';
import { firstReplyOf, initialVersions, lastShownCapability, messageGroupKey, noteAnswers, replyGroupKey, shownReplyOf, type ReplyOf, type ShelfEntry, type VersionGroup, type Versions } from './versions';

/** What `find` answers for a row of a version not shown (it is on the shelf): `row`, `put` and `replace` take it. */
export const SHELVED = -2;

/** Gap a lost event may leave before the fold stops waiting for it. */
const MAX_EARLY = 1_024;

export type Writable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * A writable view of one state during a batch. Arrays and maps are copied on
 * first write, so untouched parts keep their identity (selectors over them do
 * not fire) and the input state is never mutated.
 */
export class Draft {
  /** The next state: a shallow copy of the base whose fields the batch sets. */
  readonly next: Writable<ThreadState>;
  private changed = false;
  private rowsOwned = false;
  private idsOwned = false;
  private openOwned = false;
  private seqsOwned = false;
  /** The rows were copied rather than taken over: this batch starts a lineage of its own. */
  private forked = false;
  /** `${kind}:${id}` → position; shared along a thread's states, copied by a fork (see `indexFor`). */
  private index: Map<string, number>;
  /** The index is this draft's own copy (a fork's, or one the path was laid out again in). */
  private indexOwned = false;
  /** Set when the base's row array is written in place: what the base needs to see its own rows. */
  private undo: RowUndo | null = null;
  /** When the base's ids array is appended to in place: its length before. */
  private idsTaken: number | null = null;
  /**
   * The assistant row this batch's deltas go to: a row object this draft made (no state holds it
   * yet), so the next delta of the same message is appended to it in place. A burst of deltas
   * folded together costs one row object, not one per delta (see `appendDelta`).
   */
  growing: { index: number; row: AssistantRow } | null = null;
  /** The `branch` stamped on the event being folded (runtime/fold/versions.ts), if any. */
  branch: string | undefined = undefined;
  /** The event being folded opens the row it is about (`opensRow`): a row it adds is where it belongs. */
  opener = false;
  private versionsOwned = false;
  private shelfOwned = false;
  private groupsOwned = false;
  /**
   * Set once the batch changed a group of versions, put a row anywhere but at the shown path's
   * end, or moved a shown row to another node: `finish` then works out the first place the shown
   * path may differ and lays it out again from there (`settlePath`). A batch that changes nothing
   * on screen (an edit switched back, a late row of a version not shown) costs no lay-out at all,
   * and a switch near the end costs only the rows after it.
   */
  private unsettled = false;
  /** Set once a change may reach the shown path (`reach`): its end may move, so new rows wait on the shelf too. */
  private tipStale = false;
  /**
   * The groups changed since the shown rows were laid out, as they were then (undefined: there
   * was none): with the groups as they are, what the rows were laid out by (`replyBefore`).
   */
  private dirty: Map<string, VersionGroup | undefined> | null = null;
  /** The message each reply of a group of replies answers (`noteAnswers`), made on first need and kept up as groups change. */
  private answered: Map<string, string> | null = null;
  /** The reply shown under a message when the shown rows were laid out. */
  readonly replyBefore: ReplyOf = (messageId) => {
    const key = replyGroupKey(messageId);
    const group = this.dirty?.has(key) ? this.dirty.get(key) : own(this.tree.groups, key);
    return group?.chosen ?? firstReplyOf(messageId);
  };
  /** The rows the batch put on the shelf, by key: some may belong on the shown path. */
  private pending: string[] = [];
  /** Shown rows an opening event moved to another node: key → node. */
  private moved: Map<string, string> | null = null;
  /** The shelf key the last `find` answered `SHELVED` for. */
  private shelvedKey = '';

  constructor(private readonly base: ThreadState) {
    this.index = indexFor(base);
    // Field by field rather than a spread: one shape for every draft, and a faster copy.
    this.next = {
      rows: base.rows,
      ids: base.ids,
      open: base.open,
      lastCapability: base.lastCapability,
      appliedUpTo: base.appliedUpTo,
      appliedAbove: base.appliedAbove,
      malformed: base.malformed,
      activeTurn: base.activeTurn,
      // `??`: a state from before these fields existed (restored from JSON, say).
      lastTurnStartedSeq: base.lastTurnStartedSeq ?? 0,
      activeView: base.activeView,
      composer: base.composer,
      activeSkills: base.activeSkills,
      seqs: base.seqs ?? initialSeqs,
      versions: base.versions ?? initialVersions,
    };
  }

  /** The version tree as the batch has it. */
  get tree(): Versions {
    return this.next.versions!;
  }

  /** The version tree, writable (its groups and shelf are still shared: replace them, or use the methods here). */
  versions(): Writable<Versions> {
    this.changed = true;
    if (!this.versionsOwned) {
      this.next.versions = { ...this.tree };
      this.versionsOwned = true;
    }
    return this.next.versions as Writable<Versions>;
  }

  /**
   * The event that opens a row a later event made first (out of order) says where it belongs:
   * the row moves there (the path is laid out again at the batch's end).
   */
  settle(key: string, node: string): void {
    if (!Object.hasOwn(this.tree.provisional, key)) return;
    const v = this.versions();
    const provisional = record(v.provisional);
    delete provisional[key];
    v.provisional = provisional;
    this.unsettled = true;
    const shelved = own(this.tree.shelf, key);
    if (!shelved) {
      (this.moved ??= new Map()).set(key, node);
      this.tipStale = true;
      return;
    }
    if (shelved.node === node) return;
    this.putAside(key, { ...shelved, node });
  }

  /** A group of versions, replaced: the shown path is settled again at the batch's end. */
  setGroup(key: string, group: Versions['groups'][string]): void {
    const v = this.versions();
    if (!this.groupsOwned) {
      v.groups = record(v.groups);
      this.groupsOwned = true;
    }
    const groups = v.groups as Record<string, VersionGroup>;
    this.dirty ??= new Map();
    if (!this.dirty.has(key)) this.dirty.set(key, own(groups, key));
    groups[key] = group;
    if (this.answered) noteAnswers(this.answered, key, group);
    this.unsettled = true;
    if (!this.tipStale && groupReach((this as PathView), key) !== Infinity) this.tipStale = true;
  }

  /** Every row of a version not shown (read-only: write with `find` and `replace`). */
  shelved(): ShelfEntry[] {
    return Object.values(this.tree.shelf);
  }

  /** The shelf's entry for a key. */
  private entry(key: string): ShelfEntry | undefined {
    return own(this.tree.shelf, key);
  }

  /** Puts a row on the shelf (or changes one there). */
  private shelve(key: string, entry: ShelfEntry): void {
    this.changed = true;
    const v = this.versions();
    if (!this.shelfOwned) {
      v.shelf = record(v.shelf);
      v.shelfNodes = record(v.shelfNodes);
      this.shelfOwned = true;
    }
    (v.shelf as Record<string, ShelfEntry>)[key] = entry;
    (v.shelfNodes as Record<string, true>)[entry.node] = true;
    if (entry.parent !== undefined) (v.shelfNodes as Record<string, true>)[entry.parent] = true;
  }

  /**
   * The base's own view of its arrays, made now, when this batch stops writing into them in place
   * (the path laid out again): the base then reads plain arrays of its own, as a fork's base does.
   */
  private detachBase(): void {
    const base = this.base as Writable<ThreadState>;
    if (this.undo) {
      const view = (this.next.rows as Row[]).slice(0, this.undo.length);
      for (const [i, row] of this.undo.rows) view[i] = row;
      Object.defineProperty(base, 'rows', { configurable: true, enumerable: true, writable: false, value: view });
      this.undo = null;
    }
    if (this.idsTaken !== null) {
      Object.defineProperty(base, 'ids', { configurable: true, enumerable: true, writable: false, value: this.next.ids.slice(0, this.idsTaken) });
      this.idsTaken = null;
    }
  }

  get rows(): readonly Row[] {
    return this.next.rows;
  }

  /** Marks a change to a scalar field (rows, ids, the cast and the seqs mark themselves). */
  touch(): void {
    this.changed = true;
  }

  /** The bookkeeping, writable (its nested maps are still shared: replace them, never write into them). */
  seqs(): Writable<FoldSeqs> {
    this.changed = true;
    if (!this.seqsOwned) {
      this.next.seqs = { ...this.next.seqs };
      this.seqsOwned = true;
    }
    return this.next.seqs;
  }

  /** Records `seq` as applied; false when it already was (a replay). */
  markApplied(seq: number): boolean {
    if (hasApplied(this.next, seq)) return false;
    this.changed = true;
    let upTo = this.next.appliedUpTo;
    let above = this.next.appliedAbove;
    if (seq === upTo + 1) {
      upTo = seq;
      let k = 0;
      while (k < above.length && above[k] === upTo + 1) upTo = above[k++]!;
      if (k) above = above.slice(k);
    } else {
      const i = above.findIndex((s) => s > seq);
      above = i === -1 ? [...above, seq] : [...above.slice(0, i), seq, ...above.slice(i)];
      if (above.length > MAX_EARLY) {
        upTo = above[0]!;
        let k = 1;
        while (k < above.length && above[k] === upTo + 1) upTo = above[k++]!;
        above = above.slice(k);
      }
    }
    this.next.appliedUpTo = upTo;
    this.next.appliedAbove = above;
    return true;
  }

  /**
   * True when an event below `seq` may still arrive (one is missing). An event
   * applied in order needs no bookkeeping: nothing that could precede it is left.
   */
  gapBelow(seq: number): boolean {
    return this.next.appliedUpTo < seq;
  }

  /** Position of the row with this id and kind, or -1: constant time through the index. */
  find(id: string, kind: Row['kind']): number {
    const at = this.index.get(`${kind}:${id}`);
    // Past this state's end: another state of the lineage added it later, so this one has not.
    if (at === undefined || at >= this.rows.length) return this.onShelf(id, kind);
    const row = this.rows[at];
    if (row && row.id === id && row.kind === kind) return at;
    // Another state of the same lineage put the row elsewhere: look it up the slow way.
    for (let i = this.rows.length - 1; i >= 0; i--) {
      const r = this.rows[i]!;
      if (r.id === id && r.kind === kind) return i;
    }
    return this.onShelf(id, kind);
  }

  /** `SHELVED` when the row is on the shelf (a version not shown), else -1. */
  private onShelf(id: string, kind: Row['kind']): number {
    const key = `${kind}:${id}`;
    if (!Object.hasOwn(this.tree.shelf, key)) return -1;
    this.shelvedKey = key;
    return SHELVED;
  }

  /**
   * Adds a row where it belongs: at the shown path's end when it belongs to its last reply (the
   * stamped `branch`, or none), and a user's message that follows that reply; anywhere else on the
   * shelf, where `finish` sees whether it belongs on the shown path (see runtime/fold/versions.ts).
   */
  add(row: Row): void {
    const key = `${row.kind}:${row.id}`;
    if (!this.opener && row.kind !== 'user') {
      const v = this.versions();
      v.provisional = record(v.provisional);
      (v.provisional as Record<string, true>)[key] = true;
    }
    // A row for the path's end (or a new message, which most often goes on from it) after a change
    // that may have moved it: settle the path first (a version tried and switched back costs
    // nothing here; one kept is laid out from where it is).
    if (this.tipStale && ((this.branch ?? this.tree.tip) === this.tree.tip || (row.kind === 'user' && row.version_of === undefined))) this.settlePath();
    const tree = this.tree;
    if (row.kind === 'user') {
      const parent = this.branch ?? tree.tip;
      if (!this.tipStale && parent === tree.tip && row.version_of === undefined && !Object.hasOwn(tree.groups, messageGroupKey(row.id)) && !Object.hasOwn(tree.groups, replyGroupKey(row.id))) {
        const reply = shownReplyOf(tree.groups, row.id);
        if (!Object.hasOwn(tree.shelfNodes, reply) && !Object.hasOwn(tree.shelfNodes, row.id)) {
          this.append(row);
          this.versions().tip = reply;
          return;
        }
      }
      return this.putAside(key, { node: row.id, parent, row });
    }
    const node = this.branch ?? tree.tip;
    if (!this.tipStale && node === tree.tip) return this.append(row);
    this.putAside(key, { node, row });
  }

  /** A new row that may not go at the shown path's end: on the shelf until `finish` settles the path. */
  private putAside(key: string, entry: ShelfEntry): void {
    this.unsettled = true;
    this.pending.push(key);
    this.shelve(key, entry);
    if (!this.tipStale && reach((this as PathView), entry) !== Infinity) this.tipStale = true;
  }

  private append(row: Row): void {
    this.changed = true;
    const { next } = this;
    if (!this.rowsOwned) this.ownRows();
    if (!this.idsOwned) this.ownIds();
    (next.rows as Row[]).push(row);
    (next.ids as string[]).push(row.id);
    this.index.set(`${row.kind}:${row.id}`, next.rows.length - 1);
  }

  replace(index: number, row: Row): void {
    if (index === SHELVED) {
      const entry = this.entry(this.shelvedKey)!;
      return this.shelve(this.shelvedKey, { ...entry, row });
    }
    this.changed = true;
    if (!this.rowsOwned) this.ownRows();
    const rows = this.next.rows as Row[];
    // What the base had there, for the base's own view of its rows (see `handOn`).
    if (this.undo && index < this.undo.length && !this.undo.rows.has(index)) this.undo.rows.set(index, rows[index]!);
    rows[index] = row;
  }

  /**
   * The upsert every reducer shares: puts `row` at `at`, the position `find` gave for its kind
   * and id, or appends it when it has none yet (-1).
   */
  put(at: number, row: Row): void {
    if (at === -1) this.add(row);
    else this.replace(at, row);
  }

  /** The row at `at` (a position `find` gave for `kind`, or `SHELVED`), or null for -1. */
  row<K extends Row['kind']>(at: number, _kind: K): RowOf<K> | null {
    if (at === SHELVED) return (this.entry(this.shelvedKey)?.row ?? null) as RowOf<K> | null;
    return at === -1 ? null : (this.next.rows[at] as RowOf<K>);
  }

  /** Makes the ids writable: appended in place when the base is their newest state (ids only grow), else copied. */
  private ownIds(): void {
    this.idsOwned = true;
    const ids = this.base.ids;
    // A fork (rows copied, see `ownRows`) copies its ids too: its own positions go with its own ids.
    if (!this.forked && writableInPlace(this.base, ids)) this.idsTaken = ids.length;
    else this.next.ids = ids.slice();
  }

  /**
   * Makes the rows writable. When the base is the newest state of its row
   * array (nothing was folded from it yet) and can be changed, the array is
   * taken over and written in place, no copy: the base then reads its rows
   * through the undo record `handOn` leaves it. Otherwise (a fork of an older state, a
   * frozen state, the shared empty array) it is copied.
   */
  private ownRows(): void {
    this.rowsOwned = true;
    const rows = this.base.rows;
    if (writableInPlace(this.base, rows)) {
      this.undo = { length: rows.length, rows: new Map() };
    } else {
      this.next.rows = rows.slice();
      // A fork: its rows go their own way, so its positions do too (the copy costs what the rows' copy does).
      this.index = new Map(this.index);
      this.indexOwned = true;
      this.forked = true;
    }
  }

  /**
   * After a batch that changed groups, put rows aside or moved one: the first place the shown
   * path may differ from the rows shown — the shown version of a changed group of user messages, the
   * rows after a message whose shown reply changed, the end of a node on the path that got a row
   * (or a message that is not a version of the one shown after it), a moved row. From there the
   * path is laid out again from the shelf; the rows before keep their places. With no such place,
   * the rows put aside stay on the shelf.
   */
  private settlePath(): void {
    let from = Infinity;
    if (this.dirty) for (const key of this.dirty.keys()) from = Math.min(from, groupReach((this as PathView), key));
    let runs = false;
    for (const key of this.pending) {
      const entry = own(this.tree.shelf, key);
      if (!entry) continue;
      if (entry.row.kind === 'invocation') runs = true;
      from = Math.min(from, reach((this as PathView), entry));
    }
    if (this.moved) {
      // A moved row leaves its place, and joins its node's rows where they end (when its node is on the path).
      for (const [key, node] of this.moved) {
        const colon = key.indexOf(':');
        const at = this.shownAt(key.slice(colon + 1), key.slice(0, colon) as Row['kind']);
        if (at === -1) continue;
        const end = endOf((this as PathView), node);
        from = Math.min(from, at, end === -1 ? at : end);
      }
    }
    if (from !== Infinity) this.layOutFrom(from);
    // The cast and the chips follow the version on screen.
    if (from !== Infinity || runs) this.followShown();
    // Settled: the rows are laid out by the groups as they are.
    this.dirty = this.moved = null;
    this.pending = [];
    this.unsettled = this.tipStale = false;
  }

  /** The position of a shown row, or -1 (on the shelf, or nowhere). */
  shownAt(id: string, kind: Row['kind']): number {
    const at = this.find(id, kind);
    return at >= 0 ? at : -1;
  }

  get groups(): Versions['groups'] {
    return this.tree.groups;
  }

  /** Every reply of a group of replies, with the message it answers (made once a batch needs it, then kept up). */
  answers(): Map<string, string> {
    if (!this.answered) {
      this.answered = new Map();
      const groups = this.tree.groups;
      for (const key in groups) noteAnswers(this.answered, key, groups[key]!);
      // And as the shown rows were laid out (a group changed since may have chosen another).
      if (this.dirty) for (const [key, group] of this.dirty) if (group) noteAnswers(this.answered, key, group);
    }
    return this.answered;
  }

  /** The shown path laid out again from position `from` (see `settlePath`), in fresh arrays. */
  private layOutFrom(from: number): void {
    this.detachBase();
    const v = this.versions();
    const index = this.indexOwned ? this.index : new Map(this.index);
    const laid = relayOut((this as PathView), this.next.ids, from, v.shelf, this.moved, index);
    v.shelf = laid.shelf;
    v.shelfNodes = laid.shelfNodes;
    v.tip = laid.tip;
    this.next.rows = laid.rows;
    this.next.ids = laid.ids;
    this.index = index;
    this.shelfOwned = this.indexOwned = true;
    this.rowsOwned = this.idsOwned = this.forked = true;
    this.growing = null;
  }

  /** The cast (the shown runs that are running) and the last capability (the shown run that ended last), from the shown rows. */
  private followShown(): void {
    this.next.open = castOf(this.next.rows);
    this.openOwned = true;
    const last = lastShownCapability(this.next.rows);
    if (this.next.lastCapability !== last.capability || this.next.seqs.lastCapability !== last.seq) {
      this.next.lastCapability = last.capability;
      this.seqs().lastCapability = last.seq;
    }
  }

  setCast(id: string, entry: CastEntry | null): void {
    this.changed = true;
    if (!this.openOwned) {
      this.next.open = record(this.next.open);
      this.openOwned = true;
    }
    const open = this.next.open as Record<string, CastEntry>;
    if (entry) open[id] = entry;
    else delete open[id];
  }

  /** The next state, its arrays handed on from the base (see `handOn`); the base itself when nothing changed. */
  finish(): ThreadState {
    if (!this.changed) return this.base;
    if (this.unsettled) this.settlePath();
    handOn(this.base, this.next, this.index, this.undo, this.idsTaken);
    return this.next;
  }
}
