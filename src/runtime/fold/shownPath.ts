import type { Row, UserRow } from './rows';
import type { CastEntry } from './state';
import { annotate, firstReplyOf, layOut, messageGroupKey, nodeAt, ROOT, shownReplyOf, type ReplyOf, type ShelfEntry, type Versions } from './versions';

/*
 * Where a batch's changes reach the shown path (runtime/fold/versions.ts), and laying it out again
 * from there: what `Draft.settlePath` asks. Positions are in the shown rows as they were laid out
 * (by `replyBefore`); Infinity means "not on the shown path".
 */

/** What the reach of a change is read from: the shown rows, the groups as they are and as the rows were laid out. */
export interface PathView {
  readonly rows: readonly Row[];
  /** The groups as they are now. */
  readonly groups: Versions['groups'];
  /** The reply shown under a message when the rows were laid out. */
  readonly replyBefore: ReplyOf;
  /** The position of a shown row, or -1. */
  shownAt(id: string, kind: Row['kind']): number;
  /** Every reply of a group of replies, with the message it answers. */
  answers(): ReadonlyMap<string, string>;
}

/** Where the rows of `node` end on the shown path (the position of the message that follows it, or the end), or -1 when it is not on it. */
export function endOf(view: PathView, node: string): number {
  const { rows } = view;
  let start = 0;
  if (node !== ROOT) {
    const first = node.endsWith('.reply') ? node.slice(0, -6) : undefined;
    const message = first !== undefined && firstReplyOf(first) === node ? first : view.answers().get(node);
    const at = message !== undefined && view.replyBefore(message) === node ? view.shownAt(message, 'user') : -1;
    if (at === -1) return -1;
    start = at + 1;
  }
  for (let i = start; i < rows.length; i++) if (rows[i]!.kind === 'user') return i;
  return rows.length;
}

/** The first position a changed group may change the shown path at (Infinity: none; it shows no other version). */
export function groupReach(view: PathView, key: string): number {
  const group = view.groups[key]!;
  if (key.startsWith('u:')) {
    for (const id of group.ids) {
      const at = view.shownAt(id, 'user');
      if (at !== -1) return group.chosen === id ? Infinity : at;
    }
    return Infinity;
  }
  const message = key.slice(2);
  if (view.replyBefore(message) === group.chosen) return Infinity;
  const at = view.shownAt(message, 'user');
  return at === -1 ? Infinity : at + 1;
}

/** The first position a row put aside may change the shown path at (Infinity: it stays on the shelf). */
export function reach(view: PathView, entry: ShelfEntry): number {
  const row = entry.row;
  if (row.kind !== 'user') {
    const end = endOf(view, entry.node);
    return end === -1 ? Infinity : end;
  }
  const end = endOf(view, entry.parent ?? ROOT);
  if (end === -1) return Infinity;
  // After the path's last reply it is the next message. Before a shown message, a version of it
  // stays on the shelf while the shown one is its group's choice (its choice may be a version
  // that had not come yet, the shown one standing in for it).
  const shown = view.rows[end] as UserRow | undefined;
  if (!shown) return end;
  const first = shown.version_of ?? shown.id;
  const group = Object.hasOwn(view.groups, messageGroupKey(first)) ? view.groups[messageGroupKey(first)] : undefined;
  return (row.version_of ?? row.id) === first && group?.chosen === shown.id ? Infinity : end;
}

/** The shown path laid out again from position `from`, with the index of positions brought along. */
export interface Relaid {
  rows: Row[];
  ids: string[];
  shelf: Record<string, ShelfEntry>;
  shelfNodes: Record<string, true>;
  tip: string;
}

/**
 * Lays the shown path out again from position `from`: the rows from there go back among the
 * shelf's (with the nodes they were laid out in, `moved` ones in theirs), and the path is laid out
 * from the node at `from` by the groups as they are; the rows before keep their places. `index`
 * (`kind:id` → position) is updated in place.
 */
export function relayOut(view: PathView, ids: readonly string[], from: number, shelf: Versions['shelf'], moved: ReadonlyMap<string, string> | null, index: Map<string, number>): Relaid {
  const { rows, groups } = view;
  const loose = new Map<string, ShelfEntry>();
  annotate(rows.slice(from), view.replyBefore, loose, nodeAt(rows, view.replyBefore, from));
  if (moved) {
    for (const [key, node] of moved) {
      const entry = loose.get(key);
      if (entry) loose.set(key, { ...entry, node });
    }
  }
  const laid = layOut(loose, shelf, groups, nodeAt(rows, (id) => shownReplyOf(groups, id), from));
  // The rows that left their places (the loose ones), then the rows laid out.
  for (const key of loose.keys()) index.delete(key);
  const nextRows = rows.slice(0, from);
  const nextIds = ids.slice(0, from);
  laid.rows.forEach((row, i) => {
    index.set(laid.keys[i]!, nextRows.length);
    nextRows.push(row);
    nextIds.push(row.id);
  });
  return { rows: nextRows, ids: nextIds, shelf: laid.shelf, shelfNodes: laid.shelfNodes, tip: laid.tip };
}

/** The cast of the shown rows: the runs shown that are running. */
export function castOf(rows: readonly Row[]): Record<string, CastEntry> {
  const open = Object.create(null) as Record<string, CastEntry>;
  for (const row of rows) {
    if (row.kind !== 'invocation' || row.state !== 'running') continue;
    const entry: CastEntry = { invocation_id: row.id, capability: row.capability, title: row.title };
    if (row.actor) entry.actor = row.actor;
    if (row.progress) entry.progress = row.progress;
    open[row.id] = entry;
  }
  return open;
}
