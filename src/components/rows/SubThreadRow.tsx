import type { ComponentPropsWithRef } from 'react';
import { useCancel } from '../../hooks/useActions';
import type { SubThreadRow as SubThreadRowData } from '../../runtime/fold';
import { useThreadNavigation } from '../chat-surface/threadNavigation';
import { useMessages } from '../messages/context';

export interface SubThreadRowProps extends ComponentPropsWithRef<'article'> {
  /** The sub-thread to show. */
  row: SubThreadRowData;
}

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
  const m = useMessages().subThread;
  const heading = m.opened(row.title);
  return (
    <article aria-label={heading} {...props} data-part="subthread" data-state={row.status}>
      <p data-part="row-label">{m.label}</p>
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
        {m[row.status]}
      </p>
      {row.status === 'running' ? (
        <div data-part="row-actions">
          <button type="button" data-part="subthread-stop" aria-label={m.stopLabel(row.title)} onClick={() => cancel(row.id)}>
            {m.stop}
          </button>
        </div>
      ) : null}
    </article>
  );
}
SubThreadRow.displayName = 'ChatSurface.SubThreadRow';
