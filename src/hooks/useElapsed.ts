import { useEffect, useState } from 'react';

/** Start times further from now than this are another clock's (a fixture, a skewed server): time from first sight instead. */
const PLAUSIBLE_MS = 24 * 60 * 60 * 1000;

/**
 * Milliseconds since `startedAt`, ticking ten times a second for the first 10 s
 * while `running`, then once a second; the
 * fixed duration once `endedAt` is known; null when it never started.
 * @example
 * const ms = useElapsed(row.startedAt, row.endedAt, row.state === 'running');
 */
export function useElapsed(startedAt: number | undefined, endedAt: number | undefined, running: boolean): number | null {
  const [firstSeen] = useState(() => Date.now());
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    // A live clock: every tenth of a second while it reads in ms or tenths (the first 10 s), then each second.
    let timer: ReturnType<typeof setTimeout>;
    const tick = () => {
      const t = Date.now();
      setNow(t);
      const since = startedAt !== undefined && Math.abs(t - startedAt) < PLAUSIBLE_MS ? t - startedAt : t - firstSeen;
      timer = setTimeout(tick, since < 10_000 ? 100 : 1000);
    };
    timer = setTimeout(tick, 100);
    return () => clearTimeout(timer);
  }, [running, startedAt, firstSeen]);
  if (startedAt === undefined) return null;
  if (endedAt !== undefined) return Math.max(0, endedAt - startedAt);
  if (!running) return null;
  const since = now - startedAt;
  return since >= 0 && since < PLAUSIBLE_MS ? since : Math.max(0, now - firstSeen);
}

/**
 * A duration in words a card can show: `0.3 s`, `4.2 s`, `2 min 05 s`.
 * @example
 * formatDuration(125_000); // '2 min 05 s'
 */
export function formatDuration(ms: number): string {
  if (ms < 60_000) return `${(Math.max(0, ms) / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.floor((ms % 60_000) / 1000);
  return `${minutes} min ${String(seconds).padStart(2, '0')} s`;
}
