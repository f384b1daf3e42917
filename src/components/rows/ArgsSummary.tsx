import type { ComponentPropsWithRef } from 'react';
import { useOptionalChatSurface } from '../../hooks/context';
import { fieldLabel, plainValue, propertyOf, useValueWords } from '../invocation-card/plainWords';

export interface ArgsSummaryProps extends ComponentPropsWithRef<'dl'> {
  /** The arguments a capability will run (or ran) with. */
  args: unknown;
  /** Longest value shown before it is cut. @default 80 */
  maxLength?: number;
  /** The capability's machine name: its schema titles label the arguments. */
  capability?: string;
}

/**
 * Arguments in plain words: one label and value per line, labelled by the
 * capability's schema titles (else the name read as words), Yes/No for
 * booleans, long values cut. Nothing renders for no arguments.
 * @example
 * <ArgsSummary args={{ limit: 10, source: 'crm' }} />
 */
export function ArgsSummary({ args, maxLength = 80, capability, ...props }: ArgsSummaryProps) {
  const surface = useOptionalChatSurface();
  const words = useValueWords();
  const info = capability ? surface?.workspace.manifest.capabilities.find((c) => c.name === capability) : undefined;
  const entries = args && typeof args === 'object' && !Array.isArray(args) ? Object.entries(args as Record<string, unknown>) : [];
  if (entries.length === 0) return null;
  return (
    <dl {...props} data-part="args">
      {entries.map(([name, value]) => (
        <div key={name} data-part="args-item">
          <dt>{fieldLabel(name, propertyOf(info, name))}</dt>
          <dd>{plainValue(value, name, maxLength, words)}</dd>
        </div>
      ))}
    </dl>
  );
}
ArgsSummary.displayName = 'ChatSurface.ArgsSummary';

/** A value in one short line. */
export function formatValue(value: unknown, maxLength = 80): string {
  const text = typeof value === 'string' ? value : value === undefined ? '—' : JSON.stringify(value) ?? String(value);
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}
