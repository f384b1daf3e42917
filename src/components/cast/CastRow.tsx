import { useEffect, useRef, useState, type ComponentPropsWithRef } from 'react';
import { useCast } from '../../hooks/useThread';
import type { CastEntry } from '../../runtime/fold';
import { CastMember } from './CastMember';

export type CastRowProps = ComponentPropsWithRef<'div'>;

/**
 * Who is working right now: one entry per open invocation. Arrivals and
 * departures are announced through a polite live region.
 * @example
 * <CastRow />
 */
export function CastRow(props: CastRowProps) {
  const cast = useCast();
  const announcement = useCastAnnouncement(cast);
  return (
    <div {...props} data-part="cast" data-state={cast.length ? 'working' : 'idle'}>
      {cast.length ? (
        <ul aria-label="Working now" data-part="cast-list">
          {cast.map((entry) => (
            <CastMember key={entry.invocation_id} entry={entry} />
          ))}
        </ul>
      ) : null}
      <p role="status" aria-live="polite" data-part="cast-announcer" className="cs-visually-hidden">
        {announcement}
      </p>
    </div>
  );
}
CastRow.displayName = 'ChatSurface.CastRow';

/** A sentence about who just started or finished, for screen readers. */
function useCastAnnouncement(cast: readonly CastEntry[]): string {
  const previous = useRef<ReadonlyMap<string, CastEntry>>(new Map());
  const [text, setText] = useState('');
  useEffect(() => {
    const current = new Map(cast.map((entry) => [entry.invocation_id, entry]));
    const started = cast.filter((entry) => !previous.current.has(entry.invocation_id));
    const finished = [...previous.current.values()].filter((entry) => !current.has(entry.invocation_id));
    previous.current = current;
    const parts = [
      ...started.map((entry) => `${who(entry)} started ${entry.title}.`),
      ...finished.map((entry) => `${who(entry)} finished ${entry.title}.`),
    ];
    if (parts.length) setText(parts.join(' '));
  }, [cast]);
  return text;
}

function who(entry: CastEntry): string {
  return entry.actor?.name ?? 'The assistant';
}
