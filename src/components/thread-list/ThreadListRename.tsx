import { useEffect, useId, useRef, useState, type ComponentPropsWithRef } from 'react';
import { flushSync } from 'react-dom';
import { useMessages } from '../messages/context';
import { useThreadItem, useThreadList } from './context';

export type ThreadListRenameProps = Omit<ComponentPropsWithRef<'form'>, 'onSubmit'>;

/** The thread's open button in the list `listId`. */
function openerIn(listId: string, threadId: string) {
  return document.getElementById(listId)?.querySelector<HTMLElement>(`[data-part="thread-list-open"][data-thread-id="${CSS.escape(threadId)}"]`);
}

/**
 * The name of the item's thread, edited in place: Enter (or Save) keeps it,
 * Escape (or Cancel) leaves it as it was. An empty name is refused, saying so,
 * with what was typed kept.
 * @example
 * <ThreadList.Rename />
 */
export function ThreadListRename(props: ThreadListRenameProps) {
  const thread = useThreadItem('ThreadList.Rename');
  const list = useThreadList('ThreadList.Rename');
  const m = useMessages().threadList;
  const [name, setName] = useState(thread.title);
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);
  /**
   * Focus goes back to the thread's open button when the name is saved or
   * left: the item is drawn without the form at once (not at the next frame,
   * which a busy or hidden page may not have yet), then its button focused.
   */
  const leave = () => {
    flushSync(() => list.setRenaming(null));
    openerIn(list.listId, thread.id)?.focus();
  };
  return (
    <form
      data-part="thread-list-rename"
      data-state={saving ? 'saving' : problem ? 'error' : 'editing'}
      {...props}
      onSubmit={(event) => {
        event.preventDefault();
        if (saving) return;
        if (!name.trim()) {
          setProblem(m.nameNeeded);
          input.current?.focus();
          return;
        }
        setSaving(true);
        list.rename(thread.id, name).then(
          (renamed) => {
            list.announce(m.renamed(renamed.title));
            leave();
          },
          (error: unknown) => {
            setSaving(false);
            setProblem(m.failed(error instanceof Error ? error.message : String(error)));
          },
        );
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          leave();
        }
      }}
    >
      <label htmlFor={id}>{m.nameLabel}</label>
      <input
        ref={input}
        id={id}
        value={name}
        maxLength={80}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-problem` : undefined}
        onChange={(event) => {
          setName(event.target.value);
          setProblem(null);
        }}
      />
      <button type="submit" aria-disabled={saving || undefined}>
        {m.save}
      </button>
      <button type="button" onClick={leave}>
        {m.cancel}
      </button>
      {problem ? (
        <p id={`${id}-problem`} role="alert" data-part="thread-list-problem">
          {problem}
        </p>
      ) : null}
    </form>
  );
}
ThreadListRename.displayName = 'ThreadList.Rename';
