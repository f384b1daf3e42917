import { useEffect, useId, useRef, useState, type ComponentPropsWithRef, type KeyboardEvent } from 'react';
import { flushSync } from 'react-dom';
import { useMessages } from '../messages/context';
import { useThreadList } from './context';

export type ThreadListConfirmProps = ComponentPropsWithRef<'div'>;

/**
 * Asks before a delete: an alert dialog in the page, "Delete “…”?", saying the
 * messages go for good, with "Delete thread" and "Cancel" (focused first;
 * Escape cancels, Tab stays inside). Renders nothing until a delete is asked.
 * @example
 * <ThreadList.Confirm />
 */
export function ThreadListConfirm(props: ThreadListConfirmProps) {
  const list = useThreadList('ThreadList.Confirm');
  const m = useMessages().threadList;
  const id = useId();
  const cancel = useRef<HTMLButtonElement>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const thread = list.threads.find((t) => t.id === list.confirming);
  const opener = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (!thread) return;
    opener.current = document.activeElement as HTMLElement | null;
    setProblem(null);
    cancel.current?.focus();
  }, [thread?.id]);
  if (!thread) return null;
  const title = list.titleOf(thread);

  const close = () => {
    // The dialog gone at once (not at the next frame, which a busy or hidden page may not have yet), then the focus back.
    flushSync(() => list.setConfirming(null));
    if (opener.current?.isConnected) opener.current.focus();
  };
  const confirm = () => {
    if (busy) return;
    setBusy(true);
    list.remove(thread.id).then(
      () => {
        setBusy(false);
        list.setConfirming(null);
        list.announce(m.deleted(title));
        list.deleted(thread.id);
      },
      (error: unknown) => {
        setBusy(false);
        setProblem(m.failed(error instanceof Error ? error.message : String(error)));
      },
    );
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      close();
    } else if (event.key === 'Tab') {
      const buttons = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('button')];
      const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
      const next = event.shiftKey ? (at <= 0 ? buttons.length - 1 : at - 1) : (at + 1) % buttons.length;
      event.preventDefault();
      buttons[next]?.focus();
    }
  };
  return (
    <div
      role="alertdialog"
      aria-modal="true"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-body`}
      data-part="thread-list-confirm"
      data-state={busy ? 'deleting' : problem ? 'error' : 'open'}
      {...props}
      onKeyDown={onKeyDown}
    >
      <h2 id={`${id}-title`}>{m.confirmTitle(title)}</h2>
      <p id={`${id}-body`}>{m.confirmBody}</p>
      {problem ? <p role="alert">{problem}</p> : null}
      <button type="button" data-part="thread-list-confirm-delete" aria-disabled={busy || undefined} onClick={confirm}>
        {m.confirmDelete}
      </button>
      <button type="button" ref={cancel} onClick={close}>
        {m.cancel}
      </button>
    </div>
  );
}
ThreadListConfirm.displayName = 'ThreadList.Confirm';
