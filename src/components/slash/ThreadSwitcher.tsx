import { useId, type ComponentPropsWithRef } from 'react';
import { switcherOrder } from '../chat-surface/threadList';
import { useMessages } from '../messages/context';

export interface ThreadSwitcherProps extends Omit<ComponentPropsWithRef<'select'>, 'value' | 'onChange'> {
  /** Thread ids, oldest first. */
  threads: readonly string[];
  /** Names by thread id (from each thread's first message); a thread without one is "New thread". */
  names?: Readonly<Record<string, string>>;
  /** The thread shown. */
  value: string;
  /** Told when the user picks another thread. */
  onValueChange(threadId: string): void;
  /** Sub-threads' parents (child id → parent id): each is listed after its parent and named as its sub-thread. */
  parents?: Readonly<Record<string, string>>;
}

/**
 * Switches between this surface's threads: `/clear` starts a new one and the
 * earlier ones stay here, retrievable. A sub-thread follows its parent,
 * named as its sub-thread. Hidden while there is only one.
 * @example
 * <ThreadSwitcher threads={['main', 'thread-2']} names={{ main: 'Import the CSV' }} value="thread-2" onValueChange={setThreadId} />
 */
export function ThreadSwitcher({ threads, names = {}, value, onValueChange, parents = {}, ...props }: ThreadSwitcherProps) {
  const id = useId();
  const m = useMessages().threads;
  if (threads.length < 2) return null;
  const nameOf = (thread: string) => {
    const index = threads.indexOf(thread);
    return names[thread] ?? (index === threads.length - 1 ? m.newThread : m.numbered(index + 1));
  };
  return (
    <span data-part="thread-switcher">
      <label htmlFor={id}>{m.label}</label>{' '}
      <select id={id} {...props} value={value} onChange={(event) => onValueChange(event.target.value)}>
        {switcherOrder(threads, parents).map((thread) => {
          const parent = parents[thread];
          return (
            <option key={thread} value={thread}>
              {parent && threads.includes(parent) ? m.subThread(nameOf(thread), nameOf(parent)) : nameOf(thread)}
            </option>
          );
        })}
      </select>
    </span>
  );
}
ThreadSwitcher.displayName = 'Slash.ThreadSwitcher';
