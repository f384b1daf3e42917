import type { ChatSurfaceMessages, MessagesOverride } from './defaults';

/**
 * `base` with `override`'s messages in place of its own, part by part: a part the override
 * leaves out, or a message it leaves out of a part, stays as in `base`. Returns `base` itself
 * when there is nothing to change.
 */
export function mergeMessages(base: ChatSurfaceMessages, override: MessagesOverride | undefined): ChatSurfaceMessages {
  if (!override) return base;
  const merged: Record<string, unknown> = { ...base };
  let changed = false;
  for (const [part, words] of Object.entries(override)) {
    if (!words || !(part in base)) continue;
    merged[part] = { ...(base as Record<string, object>)[part], ...withoutUndefined(words) };
    changed = true;
  }
  return changed ? (merged as ChatSurfaceMessages) : base;
}

/** A part's messages without keys set to undefined (a host's `{ send: undefined }` keeps the default). */
function withoutUndefined(words: object): object {
  return Object.fromEntries(Object.entries(words).filter(([, value]) => value !== undefined));
}
