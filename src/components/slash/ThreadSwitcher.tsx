import { useId, type ComponentPropsWithRef } from 'react';

export interface ThreadSwitcherProps extends Omit<ComponentPropsWithRef<'select'>, 'value' | 'onChange'> {
  /** Thread ids, oldest first. */
  threads: readonly string[];
  /** Names by thread id (from each thread's first message); a thread without one is "New thread". */
  names?: Readonly<Record<string, string>>;
  /** The thread shown. */
  value: string;
  /** Told when the user picks another thread. */
  onValueChange(threadId: string): void;
}

/**
 * Switches between this surface's threads: `/clear` starts a new one and the
 * earlier ones stay here, retrievable. Hidden while there is only one.
 * @example
 * <ThreadSwitcher threads={['main', 'thread-2']} names={{ main: 'Import the CSV' }} value="thread-2" onValueChange={setThreadId} />
 */
export function ThreadSwitcher({ threads, names = {}, value, onValueChange, ...props }: ThreadSwitcherProps) {
  const id = useId();
  if (threads.length < 2) return null;
  return (
    <span data-part="thread-switcher">
      <label htmlFor={id}>Thread</label>{' '}
      <select id={id} {...props} value={value} onChange={(event) => onValueChange(event.target.value)}>
        {threads.map((thread, index) => (
          <option key={thread} value={thread}>
            {names[thread] ?? (index === threads.length - 1 ? 'New thread' : `Thread ${index + 1}`)}
          </option>
        ))}
      </select>
    </span>
  );
}
ThreadSwitcher.displayName = 'Slash.ThreadSwitcher';
