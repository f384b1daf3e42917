import { memo, useCallback, useState } from 'react';
import type { ErrorRow as ErrorRowData, Row } from '../../runtime/fold';
import { useSend } from '../../hooks/useActions';
import { useRetryMessage, useRow, useThreadSelector } from '../../hooks/useThread';
import { offersRetry } from '../invocation-card/retryable';
// The rows a turn adds besides messages, cards and errors load on first use (../rows/deferredRows).
import { ApprovalRow, ElicitationRow, InvocationCardRow, ProposalRow, QuestionRow, SkillOfferRow, StandingRow, SubThreadOriginRow, SubThreadRow, SubThreadSummaryRow, ViolationRow } from '../rows/deferredRows';
import { SkillMessage } from '../slash/SkillMessage';
import { ErrorRow } from './ErrorRow';
import { MessageRow } from './MessageRow';
import { useMessages } from '../messages/context';

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
      return row.skill !== undefined ? <SkillMessage row={row} /> : <MessageRow row={row} index={index} />;
    case 'assistant':
      return <MessageRow row={row} index={index} />;
    case 'invocation':
      return <InvocationCardRow row={row} />;
    case 'error':
      return <RetryableErrorRow index={index} row={row} />;
    case 'proposal':
      return <ProposalRow row={row} />;
    case 'approval':
      return <ApprovalRow row={row} />;
    case 'question':
      return <QuestionRow row={row} />;
    case 'violation':
      return <ViolationRow row={row} />;
    case 'standing':
      return <StandingRow row={row} />;
    case 'skill_offer':
      return <SkillOfferRow row={row} />;
    case 'subthread':
      return <SubThreadRow row={row} />;
    case 'subthread_summary':
      return <SubThreadSummaryRow row={row} />;
    case 'subthread_origin':
      return <SubThreadOriginRow row={row} />;
    case 'elicitation':
      return <ElicitationRow row={row} />;
    default:
      return row satisfies never;
  }
});
TranscriptRow.displayName = 'ChatSurface.TranscriptRow';

/**
 * Whether the turn a Stop ended already offers Retry on a card: a run the Stop cancelled (between
 * the user's message and the row) has Retry of its own, and one Retry is enough.
 */
function cardRetryBefore(index: number) {
  return (t: { rows: readonly Row[] }): boolean => {
    for (let i = Math.min(index, t.rows.length) - 1; i >= 0; i--) {
      const row = t.rows[i]!;
      if (row.kind === 'user') return false;
      if (row.kind === 'invocation' && offersRetry(row)) return true;
    }
    return false;
  };
}

const noCardRetry = () => false;

/** An error row whose Retry sends the user's last message before it again (none after a Stop whose cancelled card offers Retry). */
function RetryableErrorRow({ index, row }: { index: number; row: ErrorRowData }) {
  // The message again as it was sent: a skill's with its skill.
  const message = useRetryMessage(index);
  const onCard = useThreadSelector(row.code === 'cancelled' ? cardRetryBefore(index) : noCardRetry);
  const text = message?.text ?? null;
  const skill = message?.skill;
  const send = useSend();
  const [failure, setFailure] = useState<string | null>(null);
  const m = useMessages().error;
  const retry = useCallback(() => {
    if (text === null) return;
    setFailure(null);
    send(text, skill).catch((reason: unknown) => setFailure(m.retryFailed(reason instanceof Error ? reason.message : String(reason))));
  }, [send, text, skill, m]);
  return (
    <ErrorRow row={row} {...(text !== null && row.code !== 'malformed_event' && !onCard ? { onRetry: retry } : {})}>
      {failure ? (
        <p role="alert" data-part="error-row-failure">
          {failure}
        </p>
      ) : null}
    </ErrorRow>
  );
}
