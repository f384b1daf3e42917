import type { ComponentPropsWithRef } from 'react';
import type { CastEntry } from '../../runtime/fold';
import { useLocale, useMessages } from '../messages/context';
import { formatPercent } from '../messages/plural';

export interface CastMemberProps extends ComponentPropsWithRef<'li'> {
  /** The open invocation this figure stands for. */
  entry: CastEntry;
}

/**
 * One figure of the cast row: the actor's glyph and name, its task, and a
 * small bar (determinate with a total, moving without one).
 * @example
 * <CastMember entry={{ invocation_id: 'inv_1', capability: 'report.build', title: 'Build report' }} />
 */
export function CastMember({ entry, ...props }: CastMemberProps) {
  const fallback = useMessages().cast.assistant;
  const locale = useLocale();
  const name = entry.actor?.name ?? fallback;
  const glyph = entry.actor?.glyph ?? name.slice(0, 1).toUpperCase();
  const { progress } = entry;
  const percent = progress?.total ? Math.max(0, Math.min(100, Math.round((progress.progress / progress.total) * 100))) : null;
  const state = percent === null ? 'indeterminate' : 'determinate';
  return (
    <li {...props} data-part="cast-member" data-actor={entry.actor?.id ?? 'assistant'} data-state={state}>
      <span data-part="cast-glyph" aria-hidden="true">
        {glyph}
      </span>
      <span data-part="cast-name">{name}</span>
      <span data-part="cast-task">
        {entry.title}
        {percent !== null ? ` · ${formatPercent(locale, percent)}` : ''}
      </span>
      <span data-part="cast-meter" aria-hidden="true">
        <span data-part="cast-meter-fill" data-state={state} style={percent === null ? undefined : { width: `${percent}%` }} />
      </span>
    </li>
  );
}
CastMember.displayName = 'ChatSurface.CastMember';
