import type { ComponentPropsWithRef } from 'react';
import { checkName } from './checkNames';
import { useInvocationCard } from './context';
import { useMessages } from '../messages/context';

export type InvocationCardChecksProps = ComponentPropsWithRef<'p'>;

/**
 * What the runtime checked after the run, in one line: "✓ checked: 2 more
 * enriched records" when every postcondition held, or which checks failed
 * (`data-state="failed"`, shown amber; each one's row says what went wrong). Nothing for a run with no checks.
 * @example
 * <InvocationCard.Checks />
 */
export function InvocationCardChecks(props: InvocationCardChecksProps) {
  const { row } = useInvocationCard('Checks');
  const messages = useMessages();
  const m = messages.card;
  if (row.state !== 'done') return null;
  const failed = row.violations ?? [];
  if (failed.length) {
    return (
      <p {...props} data-part="checks" data-state="failed">
        {m.checksFailed(failed.map((v) => checkName(v.postcondition, messages.violation.checks)))}
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
