/**
 * The workspace protocol between `createRemoteWorkspace` and
 * `createWorkspaceServer`, written once: the route table (`routes.ts`), the
 * bodies each route takes (`bodies.ts`) and what it answers (`answers.ts`),
 * the thread-id rule and the decision kinds (`rules.ts`), a typed client
 * (`client.ts`), and the event stream's writer and reader side by side.
 */
export { DECISION_KINDS, THREAD_ID, THREAD_ID_RULE, ThreadId, type DecisionKind } from './rules';
export { AppToolCallBody, CancelBody, ComposerBody, DecisionBody, InvokeBody, NodeQuery, ProviderBody, SkillBody, TurnBody, ViewBody } from './bodies';
export { ErrorAnswer, WriteAnswer } from './answers';
export { OPTIONAL_METHODS, paramNames, pathOf, routes, type AnswerOf, type CallInput, type JsonRoute, type ParamsOf, type StreamRoute } from './routes';
export { createProtocolClient, type CallRoute, type SendRequest } from './client';
