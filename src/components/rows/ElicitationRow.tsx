import type { ComponentPropsWithRef } from 'react';
import { fieldsOf } from '../../runtime/elicitationFields';
import type { ElicitationRow as ElicitationRowData } from '../../runtime/fold';
import { useMessages } from '../messages/context';
import type { ChatSurfaceMessages } from '../messages/defaults';
import { ElicitationForm } from './ElicitationForm';
import { RowChoices, RowFrame } from './RowFrame';
import { useRowDecision } from './useRowDecision';

export interface ElicitationRowProps extends ComponentPropsWithRef<'article'> {
  /** The MCP server's question to show. */
  row: ElicitationRowData;
}

/** What came of the question, in words (null while it waits). */
function outcomeOf(m: ChatSurfaceMessages['elicitation'], row: ElicitationRowData): string | null {
  switch (row.status) {
    case 'pending':
      return null;
    case 'accepted':
      return row.mode === 'url' ? m.acceptedUrl(row.host ?? row.server) : m.accepted(row.server);
    case 'declined':
      return m.declined;
    case 'cancelled':
      return m.cancelled;
    case 'closed':
      return row.closed === 'timed_out' ? m.closedTimedOut : row.closed === 'interrupted' ? m.closedInterrupted : m.closedCallEnded;
    default:
      return row.status satisfies never;
  }
}

/** An accepted form's values, by their fields' labels (choices by their words). */
function AnswerSummary({ row }: { row: ElicitationRowData }) {
  const m = useMessages().elicitation;
  if (!row.content || !Object.keys(row.content).length) return null;
  const { fields } = fieldsOf(row.requested_schema);
  const shown = (key: string, value: unknown): string => {
    const field = fields.find((f) => f.key === key);
    const word = (v: string) => (field && (field.type === 'choice' || field.type === 'multi') ? (field.options.find((o) => o.value === v)?.label ?? v) : v);
    if (typeof value === 'boolean') return value ? m.yes : m.no;
    if (Array.isArray(value)) return value.map((v) => word(String(v))).join(', ');
    return word(String(value));
  };
  return (
    <dl data-part="elicitation-answer">
      {Object.entries(row.content).map(([key, value]) => (
        <div key={key}>
          <dt>{fields.find((f) => f.key === key)?.label ?? key}</dt>
          <dd>{shown(key, value)}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * A running MCP tool's question (MCP elicitation), in the chat: the server's name and its words,
 * then either its form (`ElicitationForm`: Submit, Decline, Cancel) or a link to the page it
 * asks the user to open, with the page's host, that opens in a new tab only when chosen (Done,
 * Cancel). The tool waits meanwhile. `data-state` is pending|accepted|declined|cancelled|closed,
 * `data-mode` form|url; once answered it says what came of it (and what was sent).
 * @example
 * <ElicitationRow row={{ kind: 'elicitation', id: 'e1', server: 'crm', mode: 'url', message: 'Sign in to continue.', url: 'https://login.example.com/x', host: 'login.example.com', status: 'pending' }} />
 */
export function ElicitationRow({ row, ...props }: ElicitationRowProps) {
  const pending = row.status === 'pending';
  const decision = useRowDecision<HTMLElement>(row.id, pending);
  const m = useMessages().elicitation;
  const heading = row.message || m.fallback;
  return (
    <RowFrame {...props} part="elicitation" state={row.status} data-mode={row.mode} label={pending ? m.waiting : m.label} heading={heading} outcome={outcomeOf(m, row)} decision={decision}>
      <p data-part="elicitation-source">{m.from(row.server, row.tool)}</p>
      {row.mode === 'url' && pending ? (
        <>
          <p data-part="elicitation-url-intro">{m.urlIntro(row.server, row.host ?? '')}</p>
          {row.url ? (
            <a data-part="elicitation-link" href={row.url} target="_blank" rel="noopener noreferrer">
              {m.open(row.host ?? row.url)}
            </a>
          ) : null}
          <RowChoices
            decision={decision}
            title={heading}
            choices={[
              { label: m.done, decision: 'accept', part: 'elicitation-done', variant: 'primary' },
              { label: m.cancel, decision: 'dismiss', part: 'elicitation-cancel' },
            ]}
          />
        </>
      ) : null}
      {row.mode === 'form' && pending && decision.canDecide ? <ElicitationForm row={row} decision={decision} /> : null}
      {row.status === 'accepted' ? <AnswerSummary row={row} /> : null}
    </RowFrame>
  );
}
ElicitationRow.displayName = 'ChatSurface.ElicitationRow';
