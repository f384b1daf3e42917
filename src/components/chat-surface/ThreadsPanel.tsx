import { lazy, Suspense, useEffect, useId, useState } from 'react';
import { flushSync } from 'react-dom';
import { useMessages } from '../messages/context';
import type { ThreadsApi } from '../../workspace/threadsProtocol';

// The list's code loads when the user first opens it, not with the page.
const ThreadListPanel = lazy(() => import('../thread-list/ThreadListPanel').then((parts) => ({ default: parts.ThreadListPanel })));

export interface ThreadsPanelProps {
  threads: ThreadsApi;
  value: string;
  onValueChange(threadId: string): void;
  onDelete(threadId: string): void;
  /** Told when the panel closes (the header's switcher reads the list again: names may have changed). */
  onClose(): void;
}

/**
 * The header's "All threads" button and the thread list it shows and hides
 * (`ThreadList.Panel`): opening a thread closes it and puts the focus back on
 * the button; Escape closes it too.
 */
export function ThreadsPanel({ threads, value, onValueChange, onDelete, onClose }: ThreadsPanelProps) {
  const m = useMessages().threadList;
  const [open, setOpen] = useState(false);
  const id = useId();
  const close = () => {
    // The panel gone at once (not at the next frame, which a busy or hidden page may not have yet), then the focus back.
    flushSync(() => setOpen(false));
    document.getElementById(`${id}-toggle`)?.focus();
    onClose();
  };
  return (
    <>
      <button
        type="button"
        id={`${id}-toggle`}
        data-part="thread-list-toggle"
        data-state={open ? 'open' : 'closed'}
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onClick={() => (open ? close() : setOpen(true))}
      >
        {m.toggle}
      </button>
      {open ? (
        <div
          id={id}
          data-part="thread-list-popover"
          onKeyDown={(event) => {
            if (event.key === 'Escape' && !event.defaultPrevented) close();
          }}
        >
          <Suspense fallback={<p role="status">{m.loading}</p>}>
            <ThreadListPanel
              threads={threads}
              value={value}
              onValueChange={(threadId) => {
                onValueChange(threadId);
                close();
              }}
              onDelete={onDelete}
            />
          </Suspense>
        </div>
      ) : null}
    </>
  );
}

/**
 * The store's threads in the header's quick switcher too: the first page of
 * the user's list, with their titles (a rename shows there), read when the
 * surface mounts, when the shown thread changes and when the panel closes. Renders nothing.
 */
export function ServerThreadNames({ threads, threadId, read, onThreads }: { threads: ThreadsApi; threadId: string; read: number; onThreads(list: readonly { id: string; title: string }[]): void }) {
  useEffect(() => {
    let live = true;
    threads.list({ limit: 50 }).then(
      (page) => live && onThreads(page.threads),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [threads, threadId, read, onThreads]);
  return null;
}
