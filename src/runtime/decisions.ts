/**
 * The answers a user gives to a row that waits for one: a proposal is
 * accepted or dismissed, an approval approved or denied, a question answered.
 * Written once here; the workspace protocol, the adapters and the host use it.
 */
export const DECISION_KINDS = ['accept', 'dismiss', 'approve', 'deny', 'answer'] as const;

/** One of `DECISION_KINDS`. */
export type DecisionKind = (typeof DECISION_KINDS)[number];
