import type { ComponentPropsWithRef } from 'react';

export interface ArgsSummaryProps extends ComponentPropsWithRef<'dl'> {
  /** The arguments a capability will run (or ran) with. */
  args: unknown;
  /** Longest value shown before it is cut. @default 80 */
  maxLength?: number;
}

/**
 * Arguments in plain words: one `name: value` pair per line, long values cut.
 * Nothing renders for no arguments.
 * @example
 * <ArgsSummary args={{ limit: 10, source: 'crm' }} />
 */
export function ArgsSummary({ args, maxLength = 80, ...props }: ArgsSummaryProps) {
  const entries = args && typeof args === 'object' && !Array.isArray(args) ? Object.entries(args as Record<string, unknown>) : [];
  if (entries.length === 0) return null;
  return (
    <dl {...props} data-part="args">
      {entries.map(([name, value]) => (
        <div key={name} data-part="args-item">
          <dt>{humanize(name)}</dt>
          <dd>{formatValue(value, maxLength)}</dd>
        </div>
      ))}
    </dl>
  );
}
ArgsSummary.displayName = 'ChatSurface.ArgsSummary';

/** `row_count` → `row count`: argument names read as words. */
function humanize(name: string): string {
  return name.replace(/[_.-]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

/** A value in one short line. */
export function formatValue(value: unknown, maxLength = 80): string {
  const text = typeof value === 'string' ? value : value === undefined ? '—' : JSON.stringify(value) ?? String(value);
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}
