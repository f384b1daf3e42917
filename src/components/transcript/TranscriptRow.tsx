import { memo } from 'react';
import { useRow } from '../../hooks/useThread';
import { InvocationCard } from '../invocation-card/InvocationCard';
import { ErrorRow } from './ErrorRow';
import { MessageRow } from './MessageRow';

export interface TranscriptRowProps {
  /** Position in the transcript; the row subscribes to that slot alone. */
  index: number;
}

/**
 * One transcript slot, rendered by its kind; re-renders only when its own row changes.
 * @example
 * <TranscriptRow index={0} />
 */
export const TranscriptRow = memo(function TranscriptRow({ index }: TranscriptRowProps) {
  const row = useRow(index);
  if (!row) return null;
  switch (row.kind) {
    case 'user':
    case 'assistant':
      return <MessageRow row={row} />;
    case 'invocation':
      return <InvocationCard row={row} />;
    case 'error':
      return <ErrorRow row={row} />;
    case 'proposal':
    case 'approval':
    case 'question':
    case 'violation':
    case 'standing':
      // Rendered by the rows of the surface issue; nothing emits these kinds yet.
      return null;
    default:
      return row satisfies never;
  }
});
TranscriptRow.displayName = 'ChatSurface.TranscriptRow';
