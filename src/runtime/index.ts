// The framework-free runtime: no React, no DOM, no Node built-ins, no optional peer (MCP: chatsurface/mcp; Anthropic: chatsurface/anthropic).
export { anticipationKey, suggest } from './anticipation';
export type { AnticipationMap, Suggestion } from './anticipation';
export {
  ActorSchema,
  CapabilityDefinitionError,
  CapabilityFailure,
  ToolAnnotationsSchema,
  checkDescriptor,
  defineCapability,
  inputKeys,
} from './capability';
export type {
  Actor,
  CapabilityContext,
  CapabilityDefinition,
  CapabilityDescriptor,
  CapabilityHandler,
  CapabilitySource,
  McpSource,
  OutputStream,
  ScriptSource,
  SkillSource,
  ToolAnnotations,
  TsSource,
} from './capability';
export {
  CapabilityResultSchema,
  ContentBlockSchema,
  DisplayHintSchema,
  errorResult,
  resultText,
  textResult,
} from './envelope';
export type { CapabilityResult, ContentBlock, DisplayHint, TextContent } from './envelope';
export { createEventLog } from './eventLog';
export type { EventListener, EventLog, EventLogOptions } from './eventLog';
export { ThreadEventSchema, parseThreadEvent } from './events';
export type {
  ActiveView,
  CapabilityError,
  Composer,
  DriverInfo,
  EventOf,
  Emit,
  FieldIssue,
  ThreadEvent,
  ThreadEventInput,
  ThreadEventType,
  Usage,
} from './events';
export { OUTPUT_LIMIT, fold, foldAll, hasApplied, initialThreadState } from './fold';
export type {
  ApprovalRow,
  AssistantRow,
  CastEntry,
  ErrorRow,
  InvocationRow,
  ProgressInfo,
  ProposalRow,
  QuestionRow,
  Row,
  SkillOfferRow,
  StandingRow,
  ThreadState,
  UserRow,
  Violation,
  ViolationRow,
} from './fold';
export { createId } from './ids';
export { createMemoryJobStore, defaultJobStore, trackJob } from './jobs';
export type { Job, JobStatus, JobStore, JobTracker, MemoryJobStoreOptions } from './jobs';
export { VIOLATIONS_META, invoke } from './invoke';
export type { InvokeOptions } from './invoke';
export { PostconditionSchema, expectedEffectProblems } from './postconditions';
export { checkPostconditions, sampleBaseline } from './postconditionChecks';
export type { Baseline, FileListing, Observation, Postcondition, PostconditionProbes, Verdict } from './postconditions';
export { SkillFormatError, parseSkillMd } from './sources/skillMd';
export type { ParsedSkill, SkillFrontmatter, SkillProblem } from './sources/skillMd';
export { defineSkillCapability } from './sources/skill';
export type { SkillCapabilityOptions } from './sources/skill';
export { CONTROL, DECLINED_META, ModelError } from './model';
export type {
  ActiveSkill,
  Alignment,
  CorpusPassage,
  DriverChunk,
  ModelDriver,
  ModelMessage,
  ModelRequest,
  PromptContext,
  QuestionOption,
  Route,
  ToolCall,
  ViolationNote,
} from './model';
export { ROUTE_OPTIONS, ROUTE_QUESTION, routeAnswer, routeIntent } from './prompt/router';
export { confirmationReason, decideCall, isNamed } from './engine/alignment';
export type { CallDecision, CallPolicyInput } from './engine/alignment';
export { NothingWaitingError, ThreadLimitError, createThreadHost } from './host/threadHost';
export type { HostDecision, HostInvoke, HostSkill, HostTurn, ProviderHooks, RunCapability, ThreadHost, ThreadHostOptions } from './host/threadHost';
export { historyOf } from './history';
export { interruptionEvents } from './host/derive';
export { INTERRUPTED } from './interrupted';
export { createMemoryEventStore, parseThreadKey, threadKey } from './stores/eventStore';
export type { EventStore, MaybePromise, MemoryEventStore, ThreadInfo, ThreadRef } from './stores/eventStore';
export type { Coordination } from './stores/coordination';
export type { Harness, HarnessContext, HarnessStatus } from './harness';
export { SCOPES, hasScope, spaceOf } from './principal';
export type { Authenticate, Principal } from './principal';
export { DEFAULT_ANTHROPIC_MODEL, buildAnthropicRequest, countBreakpoints } from './anthropic/request';
export type { AnthropicRequestBody, BuildOptions, BuiltRequest } from './anthropic/request';
export { createOfflineDriver } from './offlineDriver';
export type { OfflineDriverOptions } from './offlineDriver';
export { createRegistry, toJsonSchema } from './registry';
export type { CapabilityInfo, Registry } from './registry';
export { builtInNodes, builtInSkills } from './slash/builtins';
export { createCatalog } from './slash/catalog';
export type { Catalog } from './slash/catalog';
export { dispatchSlash, loadSkillText, parseLoadSkill, splitSlash } from './slash/dispatch';
export type { DispatchContext, SlashOutcome } from './slash/dispatch';
export { SkillActionSchema, SkillDefinitionSchema, catalogNode } from './slash/nodes';
export type { CatalogNode, NodeType, SkillAction, SkillDefinition } from './slash/nodes';
export { NodeQueryError, parseNodeQuery } from './slash/query';
export type { NodeQuery, QueryContext } from './slash/query';
export { findRepetition } from './slash/repetition';
export type { Repetition } from './slash/repetition';
export { SkillFileError, parseSkillMarkdown } from './slash/skillMarkdown';
export { skillNode } from './slash/skillNode';
export { BUILT_IN_SKILL_NODES } from './slash/builtinSkillData';
export { ANTHROPIC_MODEL_IDS, DEFAULT_MODEL_ID, OFFLINE_MODEL_ID, modelNodes, selectModel } from './slash/models';
export type { ModelSelection } from './slash/models';
export { SKILL_DISCOVERY_QUERY, SKILL_LIMITS, createSkillDirectory, loadStoredSkills } from './slash/skillDirectory';
export { createMemorySkillStore } from './stores/skillStore';
export type { SkillStore } from './stores/skillStore';
export { createMemorySessionStore } from './stores/sessionStore';
export type { SessionRecord, SessionStore, SessionStoreOptions } from './stores/sessionStore';
export type { SaveSkillInput, SkillDirectory, SkillDirectoryOptions } from './slash/skillDirectory';
export { draftSkillOffer, readOfferAnswer, resolveSkillOffer } from './slash/offers';
export type { SkillOfferDraft } from './slash/offers';
export type { SkillLoader } from './engine/skillDirective';
export { bearerToken, constantTimeEqual, keyAuthenticator } from './doors/apiKeys';
export type { ApiKey, Digest, TokenAuthenticate } from './doors/apiKeys';
export { awaitJob, trackedJobResult } from './doors/awaitJob';
export type { AwaitJobOptions, AwaitedJob } from './doors/awaitJob';
export { createDoor } from './doors/door';
export type { Door, DoorCall, DoorError, DoorName, DoorOptions, DoorResponse } from './doors/door';
export { createExecutor, isTerminal } from './doors/executor';
export type { ExecuteRequest, Execution, Executor, ExecutorOptions } from './doors/executor';
export { createIdempotencyCache, createMemoryIdempotencyStore, fingerprint } from './doors/idempotency';
export type { IdempotencyCache, IdempotencyBegin, IdempotencyCacheOptions, IdempotencyOutcome, IdempotencyRecord, IdempotencyStore } from './doors/idempotency';
export { boundResult, exposedOnMcp, mcpTools, publishedSchema } from './doors/mcpTools';
export type { McpToolDefinition } from './doors/mcpTools';
export { pageOfTools, InvalidCursor } from './doors/mcpTools';
export { TASKS_EXTENSION, taskOfJob } from './doors/mcpTasks';
export type { McpTask } from './doors/mcpTasks';
export { createMemoryMeter, createMemoryMeterStore, createMeter } from './doors/meter';
export type { MemoryMeter, MemoryMeterOptions, Meter, MeterBlock, MeterHold, MeterHoldResult, MeterOptions, MeterReservation, MeterStore, StoredMeter, StoredMeterReservation } from './doors/meter';
export { openApiDocument } from './doors/openapi';
export type { OpenApiOptions } from './doors/openapi';
export { decisionsFor, detachDangling, resumeTurn, runTurn, takeTurn } from './turn';
export type {
  InvokeOutcome,
  ResumeOptions,
  TurnBaseOptions,
  TurnInvoke,
  TurnOptions,
  TurnOutcome,
  TurnResult,
  Waiting,
} from './turn';
// Users' own MCP servers (issue 17): the connector store and the per-principal overlay.
export { createMemoryConnectorStore } from './stores/mcpConnectorStore';
export type { ConnectorOwner, McpConnector, McpConnectorStore } from './stores/mcpConnectorStore';
export { overlayRegistry } from './host/overlay';

// MCP Apps (#17): a result's pointer to its tool's ui:// view, and the view once read and checked.
export { MCP_APP_META, MCP_APP_MIME, resultApp, toolUi } from './mcpApp';
export type { McpAppCsp, McpAppResource, McpToolUi } from './mcpApp';
export { createMcpAppAccess, McpAppAccessError } from './host/mcpAppAccess';
export type { AppToolCallRequest, AppViewRequest, McpAppAccess } from './host/mcpAppAccess';
// Sub-threads (issue 15)
export type { SubThreadOriginRow, SubThreadRow, SubThreadSummaryRow } from './fold';
export type { SubThreadOutcome } from './events';
