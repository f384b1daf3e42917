import type { EventOf } from '../events';
import { own, record } from './records';
import type { Row, UserRow } from './rows';

/*
 * Versions (issue 40): edits and regenerations as branches of one append-only log.
 *
 * The thread is a tree. Its nodes are `root`, each user message, and each reply (the rows a turn
 * adds after a user message, until the next user message). A user message follows a reply (or
 * `root`); a reply answers a user message. An edit is a user message with `version_of` (the first
 * version's id): a sibling of that message, following the same reply. A regeneration
 * (`reply.regenerated`) is a sibling reply of the same user message. Each group of siblings shows
 * one: the newest, by seq, of its versions' creations and of the `version.selected` events that
 * name one of them. The state's `rows` are the shown path only; the rows of versions not shown
 * wait on the shelf (`Versions.shelf`) until a switch brings them back.
 *
 * Which node a row belongs to is read from the `branch` the host stamps on the event that makes it
 * (a user message's `branch` is the reply it follows); an event without one (a log written before
 * versions existed) belongs to the shown path's last reply (`tip`). So a client files every row
 * under the same node whatever order the events arrive in.
 */

/** The node before the first user message. */
export const ROOT = 'root';

/** The id of the first reply to a user message (a regeneration's reply has an id of its own). */
export function firstReplyOf(messageId: string): string {
  return `${messageId}.reply`;
}

/** A group of sibling versions: a user message's versions (`u:` + the first version's id) or the replies to a message (`r:` + its id). */
export interface VersionGroup {
  /** The versions, first to newest (by the seq that made them). */
  ids: readonly string[];
  /** The seq that made each (0 for the first version, which the group did not make). */
  seqs: readonly number[];
  /** The version shown: the newest of the creations and selections. */
  chosen: string;
  chosenSeq: number;
}

/** A row of a version not shown, with the node it belongs to (and, for a user message, the reply it follows). */
export interface ShelfEntry {
  node: string;
  parent?: string;
  row: Row;
}

export interface Versions {
  /** The shown path's last reply (or `root`): where a row without a `branch` goes. */
  tip: string;
  /** Groups with more than one version (or a selection), by `u:`/`r:` key. */
  groups: Readonly<Record<string, VersionGroup>>;
  /** The rows of versions not shown, by `kind:id`, in the order they came (plain records: a state serialises as JSON). */
  shelf: Readonly<Record<string, ShelfEntry>>;
  /** The nodes the shelf holds rows of (or user messages following), so an append can tell it needs no rearranging. */
  shelfNodes: Readonly<Record<string, true>>;
  /**
   * Rows an event that does not open them made (a delta before its message's `message.created`,
   * out of order), by `kind:id`: filed under the shown path's end until the event that opens them
   * says where they belong.
   */
  provisional: Readonly<Record<string, true>>;
}

export const initialVersions: Versions = { tip: ROOT, groups: record<VersionGroup>(), shelf: record<ShelfEntry>(), shelfNodes: record<true>(), provisional: record<true>() };

/** The key of the group a user message's versions make. */
export const messageGroupKey = (firstVersion: string): string => `u:${firstVersion}`;
/** The key of the group the replies to a user message make. */
export const replyGroupKey = (messageId: string): string => `r:${messageId}`;

/** The reply shown under a user message. */
export function shownReplyOf(groups: Versions['groups'], messageId: string): string {
  return own(groups, replyGroupKey(messageId))?.chosen ?? firstReplyOf(messageId);
}

/** A group with one more version or selection: the newest by seq is shown; null when nothing changes. */
export function withVersion(group: VersionGroup | undefined, first: string, version: string, seq: number, created: boolean): VersionGroup | null {
  let ids = group?.ids ?? [first];
  let seqs = group?.seqs ?? [0];
  if (created && !ids.includes(version)) {
    let at = seqs.length;
    while (at > 1 && seqs[at - 1]! > seq) at--;
    ids = [...ids.slice(0, at), version, ...ids.slice(at)];
    seqs = [...seqs.slice(0, at), seq, ...seqs.slice(at)];
  }
  const chosenSeq = group?.chosenSeq ?? 0;
  const take = seq > chosenSeq;
  if (!take && ids === group?.ids) return null;
  return { ids, seqs, chosen: take ? version : (group?.chosen ?? first), chosenSeq: take ? seq : chosenSeq };
}

/** Where a version stands in its group, for a picker ("2 / 3"); null when the group has one version. */
export interface VersionPosition {
  /** A user message's versions, or the replies to one. */
  part: 'message' | 'reply';
  /** The event's `message_id`: the first version's id (`message`) or the answered message's (`reply`). */
  messageId: string;
  /** The version shown. */
  version: string;
  /** 1-based. */
  index: number;
  count: number;
  previous: string | null;
  next: string | null;
}

function positionIn(group: VersionGroup | undefined, part: VersionPosition['part'], messageId: string, version: string): VersionPosition | null {
  if (!group || group.ids.length < 2) return null;
  const at = group.ids.indexOf(version);
  if (at === -1) return null;
  return { part, messageId, version, index: at + 1, count: group.ids.length, previous: group.ids[at - 1] ?? null, next: group.ids[at + 1] ?? null };
}

/** The versions of a shown user message: its place among them, or null when it has no other. */
export function messageVersions(versions: Versions | undefined, row: UserRow): VersionPosition | null {
  const first = row.version_of ?? row.id;
  return positionIn(versions && own(versions.groups, messageGroupKey(first)), 'message', first, row.id);
}

/** The replies to a shown user message: the shown one's place among them, or null when it has no other. */
export function replyVersions(versions: Versions | undefined, messageId: string): VersionPosition | null {
  if (!versions) return null;
  const group = own(versions.groups, replyGroupKey(messageId));
  return positionIn(group, 'reply', messageId, shownReplyOf(versions.groups, messageId));
}

/**
 * The shown path's nodes, in order: `root`, then each shown user message and the reply shown
 * under it. The host keeps the model's history to these (runtime/history.ts).
 */
export function shownNodes(rows: readonly Row[], versions: Versions | undefined): string[] {
  const groups = versions?.groups ?? initialVersions.groups;
  const nodes = [ROOT];
  for (const row of rows) if (row.kind === 'user') nodes.push(row.id, shownReplyOf(groups, row.id));
  return nodes;
}

/** The reply (or `root`) a shown row belongs to, by its position: for a user message, the reply it follows. */
export function nodeBefore(rows: readonly Row[], versions: Versions | undefined, index: number): string {
  const groups = versions?.groups ?? initialVersions.groups;
  return nodeAt(rows, (id) => shownReplyOf(groups, id), index);
}

/** The reply shown under a user message, by some state of the groups. */
export type ReplyOf = (messageId: string) => string;

/** `nodeBefore` by the replies given: the node a row put at `index` of the shown rows would belong to. */
export function nodeAt(rows: readonly Row[], replyOf: ReplyOf, index: number): string {
  for (let i = Math.min(index, rows.length) - 1; i >= 0; i--) {
    const row = rows[i]!;
    if (row.kind === 'user') return replyOf(row.id);
  }
  return ROOT;
}

/**
 * Shown rows annotated with their nodes, by the replies they were laid out by (what goes back
 * among the loose rows before the path is laid out again from them): `rows` starts in node `start`.
 */
export function annotate(rows: readonly Row[], replyOf: ReplyOf, into: Map<string, ShelfEntry>, start: string = ROOT): void {
  let node = start;
  for (const row of rows) {
    const key = `${row.kind}:${row.id}`;
    if (row.kind === 'user') {
      into.set(key, { node: row.id, parent: node, row });
      node = replyOf(row.id);
    } else into.set(key, { node, row });
  }
}

/**
 * Lays the shown path out from loose rows and the shelf's (read as they are, not merged): from
 * `start` (`root`, or the node the rows kept in place end in), each node's rows, then the shown
 * version of the user message that follows it, then the reply shown under that, and so on. Returns
 * the rows shown from `start` on with their keys, the rows left on the shelf, and the path's last
 * reply.
 */
export function layOut(
  loose: ReadonlyMap<string, ShelfEntry>,
  shelf: Readonly<Record<string, ShelfEntry>>,
  groups: Versions['groups'],
  start: string = ROOT,
): { rows: Row[]; keys: string[]; shelf: Record<string, ShelfEntry>; shelfNodes: Record<string, true>; tip: string } {
  // Every entry (a row is shown or on the shelf, never both: no key is in both), and each node's
  // rows (key, row, key, row, …) and the user messages that follow it.
  const allKeys: string[] = [];
  const all: ShelfEntry[] = [];
  const byNode = new Map<string, (string | Row)[]>();
  const following = new Map<string, UserRow[]>();
  const users = new Map<string, UserRow>();
  const note = (key: string, entry: ShelfEntry): void => {
    allKeys.push(key);
    all.push(entry);
    const row = entry.row;
    if (row.kind === 'user') {
      users.set(row.id, row);
      const list = following.get(entry.parent ?? ROOT);
      if (list) list.push(row);
      else following.set(entry.parent ?? ROOT, [row]);
    } else {
      const list = byNode.get(entry.node);
      if (list) list.push(key, row);
      else byNode.set(entry.node, [key, row]);
    }
  };
  for (const [key, entry] of loose) note(key, entry);
  // (Object.keys, not `for…in`: a big record is a dictionary, which `for…in` reads twice per key.)
  for (const key of Object.keys(shelf)) note(key, shelf[key]!);
  const rows: Row[] = [];
  const keys: string[] = [];
  // The nodes on the path (all their rows are shown) and the user messages shown.
  const seen = new Set<string>();
  const shownUsers = new Set<Row>();
  let node = start;
  for (;;) {
    seen.add(node);
    const its = byNode.get(node);
    if (its)
      for (let i = 0; i < its.length; i += 2) {
        keys.push(its[i] as string);
        rows.push(its[i + 1] as Row);
      }
    const next = following.get(node);
    if (!next) break;
    const first = next.find((u) => u.version_of === undefined) ?? next[0]!;
    const firstId = first.version_of ?? first.id;
    const chosen = own(groups, messageGroupKey(firstId))?.chosen;
    const shown = (chosen !== undefined ? users.get(chosen) : undefined) ?? users.get(firstId) ?? first;
    rows.push(shown);
    keys.push(`user:${shown.id}`);
    shownUsers.add(shown);
    const reply = shownReplyOf(groups, shown.id);
    if (seen.has(reply)) break;
    node = reply;
  }
  // The rest go on the shelf.
  const rest = record<ShelfEntry>();
  const shelfNodes = record<true>();
  for (let i = 0; i < all.length; i++) {
    const entry = all[i]!;
    if (entry.row.kind === 'user' ? shownUsers.has(entry.row) : seen.has(entry.node)) continue;
    rest[allKeys[i]!] = entry;
    shelfNodes[entry.node] = true;
    if (entry.parent !== undefined) shelfNodes[entry.parent] = true;
  }
  return { rows, keys, shelf: rest, shelfNodes, tip: node };
}

/**
 * Notes the message each reply of a group of replies answers, by the reply's id (a regeneration's
 * reply has an id of its own; a group may choose one whose regeneration has not come yet).
 */
export function noteAnswers(into: Map<string, string>, key: string, group: VersionGroup): void {
  if (!key.startsWith('r:')) return;
  const message = key.slice(2);
  for (const id of group.ids) into.set(id, message);
  into.set(group.chosen, message);
}

/** The capability of the shown run that ended last with success (by its `capability.done` seq), as `lastCapability` keeps it. */
export function lastShownCapability(rows: readonly Row[]): { capability: string | null; seq: number } {
  let capability: string | null = null;
  let seq = 0;
  for (const row of rows) {
    if (row.kind !== 'invocation' || row.state !== 'done' || row.capability === '') continue;
    const ended = row.seqs?.ended ?? 0;
    if (ended >= seq) {
      capability = row.capability;
      seq = ended;
    }
  }
  return { capability, seq };
}

/** The events of the version tree itself: a regeneration and a switch. (An edit is a `message.created`: see messages.ts.) */
export type VersionEvent = EventOf<'reply.regenerated' | 'version.selected'>;
