import { memo, useEffect, useState } from 'react';
import { useMessages } from '../messages/context';

/** How long the count waits for the typing to pause before it is said. */
export const COUNT_AFTER_MS = 500;

/**
 * `n` with its thousands set apart by commas (`12,345`), as `toLocaleString('en')` writes a whole
 * number but without `Intl`: a page's first `Intl` formatter loads the locale data, 14–34 ms of
 * main thread in Chromium here, which would land in the middle of the user's keys (the count is
 * said half a second after the typing pauses, as they start moving through the list).
 */
export const groupDigits = (n: number) => String(Math.trunc(n)).replace(/\B(?=(\d{3})+$)/g, ',');

/**
 * How many skills match, said by screen readers (a polite live region, not
 * shown) once the typing pauses, so a word typed letter by letter is
 * announced once, with what it leaves.
 * @example
 * <SlashCount count={items.length} />
 */
export const SlashCount = memo(function SlashCount({ count }: { count: number }) {
  const [said, setSaid] = useState<number | null>(null);
  const m = useMessages().slash;
  useEffect(() => {
    const timer = setTimeout(() => setSaid(count), COUNT_AFTER_MS);
    return () => clearTimeout(timer);
  }, [count]);
  return (
    <p role="status" className="cs-visually-hidden" data-part="slash-count">
      {said === null ? '' : m.count(said)}
    </p>
  );
});
SlashCount.displayName = 'Slash.Count';
