// The rows a turn adds besides messages, cards and errors (suggested actions, approvals,
// questions, quality checks, standing requests, skill offers, sub-threads) and the invocation
// card, in one chunk that
// the transcript loads on first use (see ./deferredRows). A first screen shows none of them.
// An MCP tool's question (./ElicitationRow, with its form) is not here: it loads when one comes.
export { ApprovalRow } from './ApprovalRow';
export { ArgsSummary } from './ArgsSummary';
export { ProposalRow } from './ProposalRow';
export { QuestionRow } from './QuestionRow';
export { SkillOfferRow } from './SkillOfferRow';
export { StandingRow } from './StandingRow';
export { SubThreadOriginRow } from './SubThreadOriginRow';
export { SubThreadRow } from './SubThreadRow';
export { SubThreadSummaryRow } from './SubThreadSummaryRow';
export { ViolationRow } from './ViolationRow';
export { InvocationCard } from '../invocation-card/InvocationCard';
