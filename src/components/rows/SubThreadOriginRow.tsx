import type { ComponentPropsWithRef } from 'react';
import type { SubThreadOriginRow as SubThreadOriginRowData } from '../../runtime/fold';
import { useThreadNavigation } from '../chat-surface/threadNavigation';
import { useMessages } from '../messages/context';

export interface SubThreadOriginRowProps extends ComponentPropsWithRef<'article'> {
  /** The link to the parent thread. */
  row: SubThreadOriginRowData;
}

/**
 * The first row of a sub-thread: which skill it runs, for which task, and
 * the way back to the thread that opened it.
 * @example
 * <SubThreadOriginRow row={{ kind: 'subthread_origin', id: 'main', skill: 'Skill/review', title: '/review', task: 'the new records' }} />
 */
export function SubThreadOriginRow({ row, ...props }: SubThreadOriginRowProps) {
  const nav = useThreadNavigation();
  const parent = nav?.nameOf(row.id) ?? row.id;
  const m = useMessages().subThread;
  const heading = m.origin(parent, row.title);
  return (
    <article aria-label={heading} {...props} data-part="subthread-origin" data-state="linked">
      <p data-part="row-label">{m.label}</p>
      <p data-part="row-title">{heading}</p>
      {row.task ? <p data-part="row-reason">{row.task}</p> : null}
      {nav ? (
        <div data-part="row-actions">
          <button type="button" data-part="subthread-back" aria-label={m.backLabel(parent)} onClick={() => nav.open(row.id)}>
            {m.back}
          </button>
        </div>
      ) : null}
    </article>
  );
}
SubThreadOriginRow.displayName = 'ChatSurface.SubThreadOriginRow';
