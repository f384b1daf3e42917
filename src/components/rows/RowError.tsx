export interface RowErrorProps {
  /** Why the last decision failed; nothing renders without one. */
  error: string | null | undefined;
}

/**
 * The alert a waiting row shows when the user's decision could not be
 * delivered; the row stays pending so the user can try again.
 * @example
 * <RowError error={decision.error} />
 */
export function RowError({ error }: RowErrorProps) {
  if (!error) return null;
  return (
    <p role="alert" data-part="row-error">
      {error}
    </p>
  );
}
RowError.displayName = 'ChatSurface.RowError';
