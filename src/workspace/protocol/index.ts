/**
 * The workspace protocol between `createRemoteWorkspace` and
 * `createWorkspaceServer`, written once: the route table (`routes.ts`), the
 * bodies each route takes (the core's `runtime/requests.ts`) and what it answers
 * (`answers.ts`), the thread-id rule (`runtime/threadId.ts`) and the decision kinds, a typed client
 * (`client.ts`), and the event stream's writer and reader side by side.
 */
export { DECISION_KINDS, type DecisionKind } from '../../runtime/decisions';
export { THREAD_ID, THREAD_ID_RULE, ThreadId } from '../../runtime/threadId';
export { AppToolCallBody, CancelBody, ComposerBody, DecisionBody, InvokeBody, NodeQuery, ProviderBody, SkillBody, TurnBody, ViewBody } from '../../runtime/requests';
export { ErrorAnswer, WriteAnswer } from './answers';
export { OPTIONAL_METHODS, paramNames, pathOf, routes, type AnswerOf, type CallInput, type JsonRoute, type ParamsOf, type StreamRoute } from './routes';
export { createProtocolClient, type CallRoute, type SendRequest } from './client';
