import type { EventOf } from '../events';
import type { Draft } from './draft';
import { firstReplyOf, messageGroupKey, replyGroupKey, withVersion, type VersionEvent } from './versions';

/**
 * The reducer of the version tree's own events (runtime/fold/versions.ts): a regeneration adds a
 * reply to a message's group of replies, a switch selects a version, an edit (a user's
 * `message.created` with `version_of`) adds a version to its message's group. The batch's end
 * lays the shown path out again from the first place the changes reach (`Draft.settlePath`).
 */
export function foldVersion(d: Draft, event: VersionEvent): void {
  switch (event.type) {
    case 'reply.regenerated':
      return change(d, replyGroupKey(event.message_id), firstReplyOf(event.message_id), event.reply_id, event.seq, true);
    case 'version.selected':
      return event.part === 'message'
        ? change(d, messageGroupKey(event.message_id), event.message_id, event.version, event.seq, false)
        : change(d, replyGroupKey(event.message_id), firstReplyOf(event.message_id), event.version, event.seq, false);
    default:
      return event satisfies never;
  }
}

/** An edit: the new version joins its message's group (before its row is added). */
export function noteEdit(d: Draft, event: EventOf<'message.created'>): void {
  if (event.role !== 'user' || event.version_of === undefined || event.version_of === event.message_id) return;
  change(d, messageGroupKey(event.version_of), event.version_of, event.message_id, event.seq, true);
}

function change(d: Draft, key: string, first: string, version: string, seq: number, created: boolean): void {
  const groups = d.tree.groups;
  const group = withVersion(Object.hasOwn(groups, key) ? groups[key] : undefined, first, version, seq, created);
  if (!group) return;
  d.setGroup(key, group);
}
