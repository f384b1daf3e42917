import { useCallback, useMemo, useState, type ComponentPropsWithRef } from 'react';
import type { UserRow } from '../../runtime/fold';
import { useOptionalChatSurface } from '../../hooks/context';
import { pickerKey, useMessageVersions, useReplyVersions, useTurnRunning, useVersionsUi } from '../../hooks/useVersions';
import { useMessages } from '../messages/context';
import { reasonOf } from '../messages/reason';
import { BranchPickerContext, type BranchPickerContextValue } from './context';
import { BranchPickerCount } from './BranchPickerCount';
import { BranchPickerNext, BranchPickerPrevious } from './BranchPickerStep';

export interface BranchPickerRootProps extends ComponentPropsWithRef<'div'> {
  /** A message of the user's: the picker of its versions (the message and its edits). */
  message?: UserRow;
  /** The id of a message of the user's: the picker of the replies to it (the reply and its regenerations). Ignored with `message`. */
  replyTo?: string | null;
}

/**
 * The versions of a message of the user's (its edits) or of the reply to one (its regenerations):
 * a group named "Versions" with "Previous version", the count ("2 / 3", and "Version 2 of 3" for
 * screen readers) and "Next version". Switching shows that version and everything that followed
 * it. Shows nothing when there is one version, or when the workspace cannot switch versions
 * (`showVersion`). The buttons are `aria-disabled` at the ends, while a reply is being written
 * (the workspace refuses to switch then) and while a switch is under way; focus stays on the
 * button pressed, also when its row is replaced by the version it brought. A refused switch says
 * why (`role="alert"`). `data-state` is idle|busy|switching|error. Without children it shows
 * `BranchPicker.Previous`, `BranchPicker.Count` and `BranchPicker.Next`.
 * @example
 * <BranchPicker.Root message={userRow} />
 * <BranchPicker.Root replyTo="u2">
 *   <BranchPicker.Previous />
 *   <BranchPicker.Count />
 *   <BranchPicker.Next />
 * </BranchPicker.Root>
 */
export function BranchPickerRoot({ message, replyTo, children, ...props }: BranchPickerRootProps) {
  const messages = useMessages();
  const m = messages.versions;
  const surface = useOptionalChatSurface();
  const ui = useVersionsUi();
  const ofMessage = useMessageVersions(message);
  const ofReply = useReplyVersions(message ? null : replyTo);
  const position = message ? ofMessage : ofReply;
  const running = useTurnRunning();
  const [switching, setSwitching] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const blocked = running || switching;

  const go = useCallback(
    (which: 'previous' | 'next') => {
      const showVersion = surface?.workspace.showVersion;
      const version = position && (which === 'previous' ? position.previous : position.next);
      if (!surface || !showVersion || !position || !version || blocked) return;
      setSwitching(true);
      setError(null);
      // The row the picker is on is replaced by the version it brings: its twin button takes focus.
      ui.setState({ focus: { target: which, key: pickerKey(position), force: false, from: position.version } });
      let promise: Promise<void>;
      try {
        promise = Promise.resolve(showVersion.call(surface.workspace, { threadId: surface.threadId, part: position.part, messageId: position.messageId, version }));
      } catch (reason) {
        promise = Promise.reject(reason);
      }
      promise.then(
        () => setSwitching(false),
        (reason: unknown) => {
          setSwitching(false);
          setError(m.notShown(reasonOf(reason, messages)));
        },
      );
    },
    [surface, position, blocked, ui, m, messages],
  );

  const value = useMemo<BranchPickerContextValue | null>(() => (position ? { position, blocked, go } : null), [position, blocked, go]);
  if (!value || !surface?.workspace.showVersion) return null;
  return (
    <BranchPickerContext.Provider value={value}>
      <div
        role="group"
        aria-label={m.label}
        {...props}
        data-part="branch-picker"
        data-version-part={value.position.part}
        data-state={switching ? 'switching' : error ? 'error' : running ? 'busy' : 'idle'}
      >
        {children ?? (
          <>
            <BranchPickerPrevious />
            <BranchPickerCount />
            <BranchPickerNext />
          </>
        )}
        {error ? (
          <span role="alert" data-part="branch-picker-error">
            {error}
          </span>
        ) : null}
      </div>
    </BranchPickerContext.Provider>
  );
}
BranchPickerRoot.displayName = 'BranchPicker.Root';
