import type { ComponentType } from 'react';
import { deferred, partName, type LoadPart } from '../deferred/deferred';
import type { InvocationCardProps } from '../invocation-card/InvocationCard';
import type { ApprovalRowProps } from './ApprovalRow';
import type { ArgsSummaryProps } from './ArgsSummary';
import type { ElicitationRowProps } from './ElicitationRow';
import type { ProposalRowProps } from './ProposalRow';
import type { QuestionRowProps } from './QuestionRow';
import type { SkillOfferRowProps } from './SkillOfferRow';
import type { StandingRowProps } from './StandingRow';
import type { SubThreadOriginRowProps } from './SubThreadOriginRow';
import type { SubThreadRowProps } from './SubThreadRow';
import type { SubThreadSummaryRowProps } from './SubThreadSummaryRow';
import type { ViolationRowProps } from './ViolationRow';
import { useMessages } from '../messages/context';

// The rows a turn adds besides messages, cards and errors (a suggested action, an approval, a
// question, a failed check, a standing request, a skill offer, the sub-thread rows) and the card of
// a tool call load apart from
// the page's first script, all in one chunk (./turnRows): a first screen shows none of them. An MCP
// tool's question (./ElicitationRow) is a chunk of its own, loaded when one comes. The
// assembled surface fetches the chunk on idle once the user steps in (`preloadTurnRows`), so the
// rows a turn adds render at once; a row that comes before the chunk (a thread opened with such
// rows in it, a recomposed surface) says what it is loading, in the row's own frame, until the
// chunk is there (a few milliseconds from the page's own server): never an empty slot.

type TurnRows = typeof import('./turnRows');
let loaded: TurnRows | undefined;
let loading: Promise<TurnRows> | null = null;
/** The chunk, once it is there; else the promise of it. A failed load is tried again when a row mounts again. */
const loadRows = (): TurnRows | Promise<TurnRows> =>
  loaded ??
  (loading ??= import('./turnRows').then(
    (m) => (loaded = m),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  ));

/** One of the chunk's parts: a row kind seen first after the chunk came (another kind loaded it) renders at once. */
function partOf<P extends object>(pick: (m: TurnRows) => ComponentType<P>): () => ComponentType<P> | Promise<ComponentType<P>> {
  return () => {
    const rows = loadRows();
    return rows instanceof Promise ? rows.then(pick) : pick(rows);
  };
}

/**
 * What a turn row shows while its code is on its way: the row's own frame (`data-part` of the
 * row, `data-state="loading"`, `aria-busy`) with a status line naming what is loading.
 * @example
 * <TurnRowLoading part="proposal" what="proposal" />
 */
export function TurnRowLoading({ part, what }: { part: string; what: LoadPart }) {
  const m = useMessages().load;
  return (
    <article data-part={part} data-state="loading" aria-busy="true">
      <p data-part="row-loading" role="status">
        {m.loading(partName(m, what))}
      </p>
    </article>
  );
}

function turnRow<P extends object>(pick: (m: TurnRows) => ComponentType<P>, name: string, part: string, what: LoadPart) {
  return deferred<P>(partOf(pick), name, <TurnRowLoading part={part} what={what} />, what).Part;
}

/** `InvocationCard`, the card of a tool call, loaded with the turn rows on first use. */
export const InvocationCardRow = turnRow<InvocationCardProps>((m) => m.InvocationCard, 'InvocationCard', 'invocation-card', 'toolCall');
/** `ApprovalRow`, loaded with the other turn rows on first use. */
export const ApprovalRow = turnRow<ApprovalRowProps>((m) => m.ApprovalRow, 'ApprovalRow', 'approval', 'approval');
/** `ProposalRow`, loaded with the other turn rows on first use. */
export const ProposalRow = turnRow<ProposalRowProps>((m) => m.ProposalRow, 'ProposalRow', 'proposal', 'proposal');
/** `ArgsSummary`, loaded with the turn rows on first use (it shows nothing meanwhile). */
export const ArgsSummary = deferred<ArgsSummaryProps>(partOf((m) => m.ArgsSummary), 'ArgsSummary', null, 'args').Part;
/**
 * `ElicitationRow` (a running MCP tool's question), a chunk of its own (its form and the fields'
 * checks), loaded when one comes: the tool then waits for the user, so no reply streams while it loads.
 */
export const ElicitationRow = deferred<ElicitationRowProps>(
  () => import('./ElicitationRow').then((m) => m.ElicitationRow),
  'ElicitationRow',
  <TurnRowLoading part="elicitation" what="question" />,
  'question',
).Part;
/** `QuestionRow`, loaded with the other turn rows on first use. */
export const QuestionRow = turnRow<QuestionRowProps>((m) => m.QuestionRow, 'QuestionRow', 'question', 'question');
/** `SkillOfferRow`, loaded with the other turn rows on first use. */
export const SkillOfferRow = turnRow<SkillOfferRowProps>((m) => m.SkillOfferRow, 'SkillOfferRow', 'skill-offer', 'skillOffer');
/** `StandingRow`, loaded with the other turn rows on first use. */
export const StandingRow = turnRow<StandingRowProps>((m) => m.StandingRow, 'StandingRow', 'standing', 'standing');
/** `SubThreadOriginRow`, loaded with the other turn rows on first use. */
export const SubThreadOriginRow = turnRow<SubThreadOriginRowProps>((m) => m.SubThreadOriginRow, 'SubThreadOriginRow', 'subthread-origin', 'subThreadOrigin');
/** `SubThreadRow`, loaded with the other turn rows on first use. */
export const SubThreadRow = turnRow<SubThreadRowProps>((m) => m.SubThreadRow, 'SubThreadRow', 'subthread', 'subThread');
/** `SubThreadSummaryRow`, loaded with the other turn rows on first use. */
export const SubThreadSummaryRow = turnRow<SubThreadSummaryRowProps>((m) => m.SubThreadSummaryRow, 'SubThreadSummaryRow', 'subthread-summary', 'subThreadSummary');
/** `ViolationRow`, loaded with the other turn rows on first use. */
export const ViolationRow = turnRow<ViolationRowProps>((m) => m.ViolationRow, 'ViolationRow', 'violation', 'violation');

/** Loads the turn rows now: the assembled surface calls it when the browser is idle once the user steps in, so the rows a turn adds render at once. */
export const preloadTurnRows = (): Promise<unknown> => Promise.resolve(loadRows());
