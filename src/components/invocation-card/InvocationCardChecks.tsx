import type { ComponentPropsWithRef } from 'react';
import { useInvocationCard } from './context';

export type InvocationCardChecksProps = ComponentPropsWithRef<'p'>;

/**
 * What the runtime checked after the run, in one line: "✓ checked: 2 more
 * enriched records" when every postcondition held, or the failed check in
 * words (`data-state="failed"`, shown amber). Nothing for a run with no checks.
 * @example
 * <InvocationCard.Checks />
 */
export function InvocationCardChecks(props: InvocationCardChecksProps) {
  const { row } = useInvocationCard('Checks');
  if (row.state !== 'done') return null;
  const failed = row.violations ?? [];
  if (failed.length) {
    return (
      <p {...props} data-part="checks" data-state="failed">
        {failed.length === 1 ? 'A check did not hold: ' : `${failed.length} checks did not hold: `}
        {failed.map((v) => v.message.trim()).join(' ')}
      </p>
    );
  }
  if (!row.checks?.length) return null;
  return (
    <p {...props} data-part="checks" data-state="passed">
      ✓ checked: {row.checks.map((c) => c.text).join('; ')}
    </p>
  );
}
InvocationCardChecks.displayName = 'InvocationCard.Checks';
