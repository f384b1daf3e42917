import type { ComponentPropsWithRef } from 'react';
import { checkName } from './checkNames';
import { useInvocationCard } from './context';

export type InvocationCardChecksProps = ComponentPropsWithRef<'p'>;

/**
 * The card names the checks that failed; what went wrong, in a sentence, is said once, by each
 * check's own row in the transcript (ViolationRow), not again here.
 */
function failedChecks(names: readonly string[]): string {
  return names.length === 1 ? `A check did not hold: ${names[0]}.` : `${names.length} checks did not hold: ${names.join(', ')}.`;
}

/**
 * What the runtime checked after the run, in one line: "✓ checked: 2 more
 * enriched records" when every postcondition held, or which checks failed
 * (`data-state="failed"`, shown amber; each one's row says what went wrong). Nothing for a run with no checks.
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
        {failedChecks(failed.map((v) => checkName(v.postcondition)))}
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
