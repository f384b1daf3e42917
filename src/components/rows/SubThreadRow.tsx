import type { ComponentPropsWithRef } from 'react';
import { useCancel } from '../../hooks/useActions';
import type { SubThreadRow as SubThreadRowData } from '../../runtime/fold';
import { useThreadNavigation } from '../chat-surface/threadNavigation';

export interface SubThreadRowProps extends ComponentPropsWithRef<'article'> {
  /** The sub-thread to show. */
  row: SubThreadRowData;
}

/** The row's state in words, after the title. */
export const SUB_THREAD_STATUS: Record<SubThreadRowData['status'], string> = {
  running: 'Working in the sub-thread…',
  done: 'Finished.',
  failed: 'Failed.',
  cancelled: 'Stopped.',
  interrupted: 'Interrupted by a restart.',
};

/**
 * "Opened a sub-thread: /review": a skill that runs in a child thread. Its
 * title is a button that shows the child (its own transcript); while it runs,
 * Stop stops the child's work from here. `data-state` is `running`, then
 * `done`, `failed`, `cancelled` or `interrupted`.
 * @example
 * <SubThreadRow row={{ kind: 'subthread', id: 'main.sub-1', skill: 'Skill/review', title: '/review', task: 'the new records', status: 'running' }} />
 */
export function SubThreadRow({ row, ...props }: SubThreadRowProps) {
  const nav = useThreadNavigation();
  const cancel = useCancel();
  const heading = `Opened a sub-thread: ${row.title}`;
  return (
    <article aria-label={heading} {...props} data-part="subthread" data-state={row.status}>
      <p data-part="row-label">Sub-thread</p>
      <p data-part="row-title">
        {nav ? (
          <button type="button" data-part="subthread-open" onClick={() => nav.open(row.id)}>
            {heading}
          </button>
        ) : (
          heading
        )}
      </p>
      {row.task ? <p data-part="row-reason">{row.task}</p> : null}
      <p data-part="row-outcome" role="status">
        {SUB_THREAD_STATUS[row.status]}
      </p>
      {row.status === 'running' ? (
        <div data-part="row-actions">
          <button type="button" data-part="subthread-stop" aria-label={`Stop the ${row.title} sub-thread`} onClick={() => cancel(row.id)}>
            Stop
          </button>
        </div>
      ) : null}
    </article>
  );
}
SubThreadRow.displayName = 'ChatSurface.SubThreadRow';
