import { useEffect, useRef, useState, type ComponentPropsWithRef } from 'react';
import { useChatSurface } from '../../hooks/context';
import { useAssistantActivity, useCast, type AssistantActivity } from '../../hooks/useThread';
import type { CastEntry } from '../../runtime/fold';
import { CastMember } from './CastMember';
import type { ChatSurfaceMessages } from '../messages/defaults';
import { useMessages } from '../messages/context';

export interface CastRowProps extends ComponentPropsWithRef<'div'> {
  /** Figures shown before the rest collapse into "+N". @default 4 */
  max?: number;
}

/**
 * Who is working right now: the assistant while it writes or thinks, and one
 * figure per open invocation, with progress; past `max` the rest show as
 * "+N". Arrivals and departures are announced through a polite live region.
 * @example
 * <CastRow max={3} />
 */
export function CastRow({ max = 4, ...props }: CastRowProps) {
  const cast = useCast();
  const { workspace } = useChatSurface();
  const assistant = useAssistantActivity(workspace.manifest.driver.label);
  const m = useMessages().cast;
  const announcement = useCastAnnouncement(cast, m);
  const slots = Math.max(1, max - (assistant ? 1 : 0));
  const shown = cast.length > slots + 1 ? cast.slice(0, slots) : cast;
  const rest = cast.slice(shown.length);
  const working = cast.length > 0 || assistant !== null;
  return (
    <div {...props} data-part="cast" data-state={working ? 'working' : 'idle'}>
      {working ? (
        <ul aria-label={m.label} data-part="cast-list">
          {assistant ? <AssistantFigure activity={assistant} /> : null}
          {shown.map((entry) => (
            <CastMember key={entry.invocation_id} entry={entry} />
          ))}
          {rest.length ? (
            <li data-part="cast-overflow" title={rest.map((entry) => entry.title).join(', ')}>
              <span aria-hidden="true">+{rest.length}</span>
              <span className="cs-visually-hidden">
                {m.more(
                  rest.length,
                  rest.map((entry) => `${entry.actor?.name ?? m.assistant} (${entry.title})`),
                )}
              </span>
            </li>
          ) : null}
        </ul>
      ) : null}
      <p role="status" aria-live="polite" data-part="cast-announcer" className="cs-visually-hidden">
        {announcement}
      </p>
    </div>
  );
}
CastRow.displayName = 'ChatSurface.CastRow';

function AssistantFigure({ activity }: { activity: AssistantActivity }) {
  const m = useMessages().cast;
  return (
    <li data-part="cast-member" data-actor="assistant" data-state={activity.state}>
      <span data-part="cast-glyph" aria-hidden="true">
        ✦
      </span>
      <span data-part="cast-name">{activity.label}</span>
      <span data-part="cast-task">{activity.state === 'writing' ? m.writing : m.thinking}</span>
      {/* While it writes, the reply growing in the transcript shows the work: no moving bar
          beside it (the browser would step its animation on the main thread each frame of the stream). */}
      {activity.state === 'thinking' ? (
        <span data-part="cast-meter" aria-hidden="true">
          <span data-part="cast-meter-fill" data-state="indeterminate" />
        </span>
      ) : null}
    </li>
  );
}

/** A sentence about who just started or finished, for screen readers. */
function useCastAnnouncement(cast: readonly CastEntry[], m: ChatSurfaceMessages['cast']): string {
  const previous = useRef<ReadonlyMap<string, CastEntry>>(new Map());
  const [text, setText] = useState('');
  useEffect(() => {
    const current = new Map(cast.map((entry) => [entry.invocation_id, entry]));
    const started = cast.filter((entry) => !previous.current.has(entry.invocation_id));
    const finished = [...previous.current.values()].filter((entry) => !current.has(entry.invocation_id));
    previous.current = current;
    const parts = [
      ...started.map((entry) => m.started(entry.actor?.name, entry.title)),
      ...finished.map((entry) => m.finished(entry.actor?.name, entry.title)),
    ];
    if (parts.length) setText(parts.join(' '));
  }, [cast]);
  return text;
}
