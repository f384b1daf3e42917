import type { InvocationRow } from '../../runtime/fold';

/**
 * Whether a card offers Retry (`InvocationCard.Retry`): it failed or was cancelled, the failure is
 * recoverable, and not for refused arguments (the same ones would be refused again).
 */
export function offersRetry(row: InvocationRow): boolean {
  const settledBadly = row.state === 'failed' || row.state === 'cancelled';
  return settledBadly && !!row.recoverable && !!row.capability && row.error?.code !== 'invalid_arguments';
}
