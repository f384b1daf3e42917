// chatsurface/internal: the parts the public entries are built from, for the kit's own benches,
// tests and the curious. NO PROMISE: any name here may change or go in any release, without a
// major version. A host writes against chatsurface, chatsurface/runtime, chatsurface/server and the
// integration entries; if you need something from here, open an issue so it can become public.
// Framework-free like chatsurface/runtime: no React, no DOM, no Node built-ins, no optional peer.

// Capabilities: checks, invocation internals, jobs.
export { checkDescriptor, inputKeys } from './runtime/capability';
export { toJsonSchema } from './runtime/registry';
export { VIOLATIONS_META } from './runtime/invoke';
export { trackJob } from './runtime/jobs';
export type { JobTracker } from './runtime/jobs';
export { createId } from './runtime/ids';
export { PostconditionSchema, expectedEffectProblems } from './runtime/postconditions';
export { checkPostconditions, sampleBaseline } from './runtime/postconditionChecks';

// The fold's and the host's inner parts.
export { OUTPUT_LIMIT, hasApplied } from './runtime/fold';
export { historyOf } from './runtime/history';
export { interruptionEvents } from './runtime/host/derive';
export { INTERRUPTED } from './runtime/interrupted';
export { overlayRegistry } from './runtime/host/overlay';
export { createMcpAppAccess, McpAppAccessError } from './runtime/host/mcpAppAccess';
export type { McpAppAccess } from './runtime/host/mcpAppAccess';
export { MCP_APP_META, MCP_APP_MIME, resultApp, toolUi } from './runtime/mcpApp';
export type { McpToolUi } from './runtime/mcpApp';
export { createMemoryConnectorStore } from './runtime/stores/connectorStore';
export type { ConnectorOwner, Connector, ConnectorStore } from './runtime/stores/connectorStore';
export { spaceOf } from './runtime/principal';

// The turn engine.
export { DECLINED_META } from './runtime/model';
export { ROUTE_OPTIONS, ROUTE_QUESTION, routeAnswer } from './runtime/prompt/router';
export { confirmationReason, decideCall, isNamed } from './runtime/engine/alignment';
export type { CallDecision, CallPolicyInput } from './runtime/engine/alignment';
export type { SkillLoader } from './runtime/engine/skillDirective';
export { decisionsFor, detachDangling, resumeTurn, runTurn, takeTurn } from './runtime/turn';
export type { InvokeOutcome, ResumeOptions, TurnBaseOptions, TurnInvoke, TurnOptions, TurnOutcome, TurnResult, Waiting } from './runtime/turn';
export { DEFAULT_ANTHROPIC_MODEL, buildAnthropicRequest, countBreakpoints } from './runtime/anthropic/request';
export type { AnthropicRequestBody, BuildOptions, BuiltRequest } from './runtime/anthropic/request';

// Slash skills: dispatch, queries, offers, models.
export { builtInSkills } from './runtime/slash/builtins';
export { dispatchSlash, splitSlash } from './runtime/slash/dispatch';
export { loadSkillText, parseLoadSkill } from './runtime/skillField';
export type { DispatchContext, SlashOutcome } from './runtime/slash/dispatch';
export { SkillActionSchema, SkillDefinitionSchema } from './runtime/catalogNodes';
export { parseNodeQuery } from './runtime/slash/query';
export type { NodeQuery, QueryContext } from './runtime/slash/query';
export { findRepetition } from './runtime/slash/repetition';
export type { Repetition } from './runtime/slash/repetition';
export { skillNode } from './runtime/slash/skillNode';
export { ANTHROPIC_MODEL_IDS, DEFAULT_MODEL_ID, OFFLINE_MODEL_ID, modelNodes, selectModel } from './runtime/slash/models';
export type { ModelSelection } from './runtime/slash/models';
export { SKILL_LIMITS } from './runtime/slash/skillDirectory';
export { draftSkillOffer, readOfferAnswer, resolveSkillOffer } from './runtime/slash/offers';
export type { SkillOfferDraft } from './runtime/slash/offers';

// The doors (chat, REST, MCP) and what they share: keys, idempotency, jobs, tools, the OpenAPI document.
export { bearerToken, constantTimeEqual, keyAuthenticator } from './runtime/doors/apiKeys';
export type { Digest, TokenAuthenticate } from './runtime/doors/apiKeys';
export { awaitJob, trackedJobResult } from './runtime/doors/awaitJob';
export type { AwaitJobOptions, AwaitedJob } from './runtime/doors/awaitJob';
export { createDoor } from './runtime/doors/door';
export type { Door, DoorCall, DoorError, DoorName, DoorOptions, DoorResponse } from './runtime/doors/door';
export { createExecutor, isTerminal } from './runtime/doors/executor';
export type { ExecuteRequest, Execution, Executor, ExecutorOptions } from './runtime/doors/executor';
export { createIdempotencyCache, createMemoryIdempotencyStore, fingerprint } from './runtime/doors/idempotency';
export type { IdempotencyBegin, IdempotencyCache, IdempotencyCacheOptions, IdempotencyOutcome, IdempotencyRecord, IdempotencyStore } from './runtime/doors/idempotency';
export { InvalidCursor, boundResult, exposedOnMcp, mcpTools, pageOfTools, publishedSchema } from './runtime/doors/mcpTools';
export type { McpToolDefinition } from './runtime/doors/mcpTools';
export { TASKS_EXTENSION, taskOfJob } from './runtime/doors/mcpTasks';
export type { McpTask } from './runtime/doors/mcpTasks';
export { openApiDocument } from './runtime/doors/openapi';
