import { memo, useEffect, useState } from 'react';

/** How long the count waits for the typing to pause before it is said. */
export const COUNT_AFTER_MS = 500;

/**
 * How many skills match, said by screen readers (a polite live region, not
 * shown) once the typing pauses, so a word typed letter by letter is
 * announced once, with what it leaves.
 * @example
 * <SlashCount count={items.length} />
 */
export const SlashCount = memo(function SlashCount({ count }: { count: number }) {
  const [said, setSaid] = useState<number | null>(null);
  useEffect(() => {
    const timer = setTimeout(() => setSaid(count), COUNT_AFTER_MS);
    return () => clearTimeout(timer);
  }, [count]);
  return (
    <p role="status" className="cs-visually-hidden" data-part="slash-count">
      {said === null ? '' : `${said.toLocaleString('en')} ${said === 1 ? 'skill matches' : 'skills match'}`}
    </p>
  );
});
SlashCount.displayName = 'Slash.Count';
