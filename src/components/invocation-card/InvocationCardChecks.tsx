import type { ComponentPropsWithRef } from 'react';
import { useInvocationCard } from './context';
import { useMessages } from '../messages/context';

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
  const m = useMessages().card;
  if (row.state !== 'done') return null;
  const failed = row.violations ?? [];
  if (failed.length) {
    return (
      <p {...props} data-part="checks" data-state="failed">
        {m.checksFailed(failed.length)}
        {failed.map((v) => v.message.trim()).join(' ')}
      </p>
    );
  }
  if (!row.checks?.length) return null;
  return (
    <p {...props} data-part="checks" data-state="passed">
      {m.checksPassed(row.checks.map((c) => c.text))}
    </p>
  );
}
InvocationCardChecks.displayName = 'InvocationCard.Checks';
