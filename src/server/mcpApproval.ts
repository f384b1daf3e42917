import { inputRequired, inputResponse, type CallToolResult, type InputRequiredResult, type ServerContext } from '@modelcontextprotocol/server';
import { notWaitingMessage, sameRequest } from '../runtime/doors/approvals';
import type { DoorResponse } from '../runtime/doors/door';
import { errorResult } from '../runtime/results';
import type { Job, JobStore } from '../runtime/jobs';
import type { Principal } from '../runtime/principal';
import type { ServerApprovals } from './doorApprovals';

/** The key of the approval form in an `input_required` result and in the retried call's `inputResponses`. */
export const APPROVAL_INPUT = 'approval';

/** True when a client's capabilities offer form elicitation (`elicitation: {}` counts as form, as the spec's earlier revisions said). */
export function clientElicits(capabilities: unknown): boolean {
  const elicitation = (capabilities as { elicitation?: unknown } | undefined)?.elicitation;
  if (typeof elicitation !== 'object' || elicitation === null) return false;
  const modes = elicitation as { form?: unknown; url?: unknown };
  return modes.form !== undefined || modes.url === undefined;
}

/**
 * The first round of a call that needs a person (MCP 2026-07-28, multi-round-trip): an
 * `elicitation/create` form with the job's question, and the job's id as `requestState`. The form
 * has no fields: the user's accept or decline is the answer.
 */
export function askForApproval(job: Job, title: string): InputRequiredResult {
  const message = `${title} asks for your approval before it runs (nothing has run yet). Accept to run it now, or decline and it will not run.`;
  return inputRequired({
    inputRequests: { [APPROVAL_INPUT]: inputRequired.elicit({ message, requestedSchema: { type: 'object', properties: {} } }) },
    requestState: job.id,
  });
}

const toolError = (text: string) => errorResult(text) as CallToolResult;

/**
 * The retried call that carries the user's answer: the `requestState` names the waiting job, which
 * must be this principal's and this very call (same tool, same arguments) and still waiting. Accept
 * runs it through the MCP door (once: `ServerApprovals.decide`); decline or cancel ends it, and
 * nothing runs. Null when the call carries no answer (the first round).
 */
export async function answerApproval(
  ctx: ServerContext,
  call: { name: string; args: unknown; principal: Principal },
  deps: { jobs: JobStore; approvals: ServerApprovals; title(capability: string): string; result(response: DoorResponse): CallToolResult },
): Promise<CallToolResult | InputRequiredResult | null> {
  const state = ctx.mcpReq.requestState<unknown>();
  if (typeof state !== 'string') return null;
  const job = await deps.jobs.get(state);
  if (!job || job.threadKey !== `mcp:${call.principal.user}` || job.capability !== call.name) {
    return toolError('This approval answer does not belong to a call of yours that waits for one; call the tool again to be asked again.');
  }
  if (job.status !== 'waiting') return toolError(notWaitingMessage(job));
  if (!sameRequest(job, call.name, call.args)) return toolError('The arguments changed since the approval was asked for, so nothing ran; call the tool again to be asked again.');
  const answer = inputResponse(ctx.mcpReq.inputResponses, APPROVAL_INPUT);
  if (answer.kind !== 'elicit') return askForApproval(job, deps.title(job.capability));
  const approved = answer.action === 'accept';
  const outcome = await deps.approvals.decide(job, approved, 'mcp');
  if (!outcome.ok) return toolError(outcome.message);
  if (!approved) return toolError(outcome.job.error?.message ?? 'You declined it, so it did not run.');
  return outcome.response ? deps.result(outcome.response) : toolError(`It was approved; follow job ${job.id} with GET /v1/jobs/${job.id} (same key).`);
}
