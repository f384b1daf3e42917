import type { AssistantRow, Row, RowOf } from './rows';
import { hasApplied, initialSeqs, type CastEntry, type FoldSeqs, type ThreadState } from './state';
import { handOn, indexFor, writableInPlace, type RowUndo } from './storage';
import { annotate, initialVersions, lastShownCapability, layOut, messageGroupKey, record, shownReplyOf, type ShelfEntry, type Versions } from './versions';

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
   * While the shown path is dissolved (a version was added or switched): every row, shown and
   * shelved, by `kind:id`, with its node, until `finish` lays the path out again. Null otherwise.
   */
  private loose: Map<string, ShelfEntry> | null = null;
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
   * Before a group of versions changes, or a row lands off the shown path's end: every shown row
   * goes on the shelf with the node its place gives it (by the groups as they are), and `finish`
   * lays the path out again. Once per batch.
   */
  dissolve(): void {
    if (this.loose) return;
    this.detachBase();
    const v = this.versions();
    const loose = new Map<string, ShelfEntry>();
    annotate(this.next.rows, v.groups, loose);
    for (const key in v.shelf) loose.set(key, v.shelf[key]!);
    this.loose = loose;
    this.next.rows = [];
    this.next.ids = [];
    this.index = new Map();
    this.rowsOwned = this.idsOwned = this.forked = true;
    this.growing = null;
  }

  /**
   * The event that opens a row a later event made first (out of order) says where it belongs:
   * the row moves there (the path is laid out again at the batch's end).
   */
  settle(key: string, node: string): void {
    if (!Object.hasOwn(this.tree.provisional, key)) return;
    this.dissolve();
    const v = this.versions();
    const provisional = record(v.provisional);
    delete provisional[key];
    v.provisional = provisional;
    const entry = this.entry(key);
    if (entry && entry.node !== node) this.shelve(key, { ...entry, node });
  }

  /** A group of versions, replaced (after `dissolve`). */
  setGroup(key: string, group: Versions['groups'][string]): void {
    const v = this.versions();
    if (!this.groupsOwned) {
      v.groups = record(v.groups);
      this.groupsOwned = true;
    }
    (v.groups as Record<string, Versions['groups'][string]>)[key] = group;
  }

  /** Every row of a version not shown (read-only: write with `find` and `replace`). */
  shelved(): ShelfEntry[] {
    return this.loose ? [...this.loose.values()] : Object.values(this.tree.shelf);
  }

  /** The shelf's entry for a key (the loose rows while dissolved). */
  private entry(key: string): ShelfEntry | undefined {
    return this.loose ? this.loose.get(key) : this.tree.shelf[key];
  }

  /** Puts a row on the shelf (or changes one there). */
  private shelve(key: string, entry: ShelfEntry): void {
    this.changed = true;
    if (this.loose) {
      this.loose.set(key, entry);
      return;
    }
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
   * (a `dissolve`): the base then reads plain arrays of its own, as a fork's base does.
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
    if (this.loose ? !this.loose.has(key) : !Object.hasOwn(this.tree.shelf, key)) return -1;
    this.shelvedKey = key;
    return SHELVED;
  }

  /**
   * Adds a row where it belongs: at the shown path's end when it belongs to its last reply (the
   * stamped `branch`, or none), and a user's message that follows that reply; anywhere else on the
   * shelf, the path then laid out again at the batch's end (see runtime/fold/versions.ts).
   */
  add(row: Row): void {
    const tree = this.tree;
    const key = `${row.kind}:${row.id}`;
    if (!this.opener && row.kind !== 'user') {
      const v = this.versions();
      v.provisional = record(v.provisional);
      (v.provisional as Record<string, true>)[key] = true;
    }
    if (row.kind === 'user') {
      const parent = this.branch ?? tree.tip;
      const reply = shownReplyOf(tree.groups, row.id);
      if (!this.loose && parent === tree.tip && row.version_of === undefined && !Object.hasOwn(tree.groups, messageGroupKey(row.id)) && !Object.hasOwn(tree.shelfNodes, reply) && !Object.hasOwn(tree.shelfNodes, row.id)) {
        this.append(row);
        this.versions().tip = reply;
        return;
      }
      this.dissolve();
      return this.shelve(key, { node: row.id, parent, row });
    }
    const node = this.branch ?? tree.tip;
    if (!this.loose && node === tree.tip) return this.append(row);
    this.dissolve();
    this.shelve(key, { node, row });
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
      this.forked = true;
    }
  }

  /** After a `dissolve`: the shown path laid out from the shelf, in fresh arrays. */
  private layOut(): void {
    const v = this.versions();
    const { rows, shelf, shelfNodes, tip } = layOut(this.loose!, v.groups);
    this.loose = null;
    v.shelf = shelf;
    v.shelfNodes = shelfNodes;
    v.tip = tip;
    this.next.rows = rows;
    this.next.ids = rows.map((row) => row.id);
    this.index = new Map(rows.map((row, i) => [`${row.kind}:${row.id}`, i]));
    // The cast follows the version on screen: the runs shown that are running.
    const open = nullProto<CastEntry>({});
    for (const row of rows) {
      if (row.kind !== 'invocation' || row.state !== 'running') continue;
      const entry: CastEntry = { invocation_id: row.id, capability: row.capability, title: row.title };
      if (row.actor) entry.actor = row.actor;
      if (row.progress) entry.progress = row.progress;
      open[row.id] = entry;
    }
    this.next.open = open;
    this.openOwned = true;
    // The chips follow it too: the last capability is the shown run that ended last.
    const last = lastShownCapability(rows);
    if (this.next.lastCapability !== last.capability || this.next.seqs.lastCapability !== last.seq) {
      this.next.lastCapability = last.capability;
      this.seqs().lastCapability = last.seq;
    }
  }

  setCast(id: string, entry: CastEntry | null): void {
    this.changed = true;
    if (!this.openOwned) {
      this.next.open = nullProto(this.next.open);
      this.openOwned = true;
    }
    const open = this.next.open as Record<string, CastEntry>;
    if (entry) open[id] = entry;
    else delete open[id];
  }

  /** The next state, its arrays handed on from the base (see `handOn`); the base itself when nothing changed. */
  finish(): ThreadState {
    if (!this.changed) return this.base;
    if (this.loose) this.layOut();
    handOn(this.base, this.next, this.index, this.undo, this.idsTaken);
    return this.next;
  }
}

/** A prototype-less copy, so ids like `__proto__` or `constructor` are ordinary keys. */
function nullProto<T>(record: Readonly<Record<string, T>>): Record<string, T> {
  return Object.assign(Object.create(null) as Record<string, T>, record);
}

/** `record[key]` when it is the record's own entry (a state restored from JSON has a prototype). */
export function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** A copy of the record with `key` set to the higher of its value and `seq`. */
export function withMax(record: Readonly<Record<string, number>>, key: string, seq: number): Record<string, number> | null {
  if ((own(record, key) ?? 0) >= seq) return null;
  const copy = nullProto(record);
  copy[key] = seq;
  return copy;
}
