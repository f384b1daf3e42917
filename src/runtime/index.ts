// The framework-free runtime: no React, no DOM, no Node built-ins, no optional peer (MCP: chatsurface/mcp; Anthropic: chatsurface/anthropic).
// What a host writes against: capabilities and their results, skills, anticipation, the thread host and
// its stores, model drivers, the slash catalog. The parts these are built from are in chatsurface/internal (no promise).

// Capabilities: define them, return results, throw their errors.
export { CapabilityDefinitionError, CapabilityFailure, defineCapability } from './capability';
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
export { errorResult, resultText, textResult } from './results';
export type { CapabilityResult, ContentBlock, DisplayHint, TextContent } from './envelope';
export { createRegistry } from './registry';
export type { CapabilityInfo, Registry } from './registry';
export { invoke } from './invoke';
export type { InvokeOptions } from './invoke';
export { defaultJobStore, createMemoryJobStore } from './jobs';
export type { Job, JobApproval, JobStatus, JobStore, MemoryJobStoreOptions } from './jobs';
export type { RunStatus } from './runStatus';
export type { Baseline, FileListing, Observation, Postcondition, PostconditionProbes, Verdict } from './postconditions';

// The schemas a page validates with (zod mini; see docs/zod-mini.md).
export { ActorSchema, ToolAnnotationsSchema } from './capability';
export { CapabilityResultSchema, ContentBlockSchema, DisplayHintSchema } from './envelope';

// Events and the state folded from them.
export { ThreadEventSchema, parseThreadEvent } from './events';
export type {
  ActiveView,
  CapabilityError,
  Citation,
  CitationLocation,
  CitedSource,
  Composer,
  DriverInfo,
  EventOf,
  Emit,
  FieldIssue,
  SubThreadOutcome,
  ThreadEvent,
  ThreadEventInput,
  ThreadEventType,
  Usage,
} from './events';
export { createEventLog } from './eventLog';
export type { EventListener, EventLog, EventLogOptions } from './eventLog';
export { initialThreadState, messageVersions, replyVersions } from './fold';
export { fold, foldAll } from './foldEvents';
export type {
  VersionGroup,
  VersionPosition,
  Versions,
  ApprovalRow,
  AssistantRow,
  CastEntry,
  ElicitationRow,
  ErrorRow,
  InvocationRow,
  ProgressInfo,
  ProposalRow,
  QuestionRow,
  Reasoning,
  ReplySource,
  Row,
  SkillOfferRow,
  StandingRow,
  SubThreadOriginRow,
  SubThreadRow,
  SubThreadSummaryRow,
  ThreadState,
  UserRow,
  Violation,
  ViolationRow,
} from './fold';

// Skills: SKILL.md capabilities, and the slash catalog's nodes.
export { SkillFormatError, parseSkillMd } from './skillMd';
export type { ParsedSkill, SkillFrontmatter, SkillProblem } from './skillMd';
export { defineSkillCapability } from './sources/skill';
export type { SkillCapabilityOptions } from './sources/skill';
export { catalogNode } from './catalogNodes';
export type { CatalogNode, NodeType, SkillAction, SkillDefinition } from './catalogNodes';
export { SkillFileError, parseSkillMarkdown } from './slash/skillMarkdown';
export { createCatalog } from './slash/catalog';
export type { Catalog } from './slash/catalog';
export { builtInNodes } from './slash/builtinNodes';
export { BUILT_IN_SKILL_NODES } from './slash/builtinSkillData';
export { NodeQueryError } from './slash/query';
export { SKILL_DISCOVERY_QUERY, SkillLimitError, createSkillDirectory, loadStoredSkills } from './slash/skillDirectory';
export type { SaveSkillInput, SkillDirectory, SkillDirectoryOptions } from './slash/skillDirectory';
export { createSkillLoader } from './slash/skillLoader';
export type { SkillLoader, SkillLoaderOptions } from './slash/skillLoader';

// Anticipation: the next verbs a view suggests.
export { anticipationKey, suggest } from './anticipation';
export type { AnticipationMap, Suggestion } from './anticipation';

// Model drivers.
export { CONTROL, ModelError } from './model';
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
  ThinkingBlock,
  ToolCall,
  ViolationNote,
} from './model';
export { createOfflineDriver } from './offlineDriver';
export type { OfflineDriverOptions } from './offlineDriver';
export { routeIntent } from './prompt/router';
export type { Harness, HarnessContext, HarnessStatus } from './harness';

// The thread host, who may use it, and where it keeps things.
export { FeedbackError, NothingWaitingError, ThreadLimitError, createThreadHost } from './host/threadHost';
export type { FeedbackChange, FeedbackEntry, HostDecision, HostFeedback, HostInvoke, HostSkill, HostTurn, ProviderHooks, RunCapability, ThreadHost, ThreadHostOptions } from './host/threadHost';
export { SCOPES, hasScope } from './principal';
export type { Authenticate, Principal } from './principal';
export { createMemoryEventStore, parseThreadKey, threadKey } from './stores/eventStore';
export type { EventStore, MaybePromise, MemoryEventStore, ThreadInfo, ThreadRef } from './stores/eventStore';
export type { ThreadIndex, ThreadListQuery, ThreadPage, ThreadSummary } from './stores/threadIndex';
export type { Coordination } from './stores/coordination';
export { createMemorySkillStore } from './stores/skillStore';
export type { SkillStore } from './stores/skillStore';
export { createMemorySessionStore } from './stores/sessionStore';
export type { SessionRecord, SessionStore, SessionStoreOptions } from './stores/sessionStore';
export { createMemoryMeter, createMemoryMeterStore, createMeter } from './doors/meter';
export type { MemoryMeter, MemoryMeterOptions, Meter, MeterBlock, MeterHold, MeterHoldResult, MeterOptions, MeterReservation, MeterStore, StoredMeter, StoredMeterReservation } from './doors/meter';
export type { RequestGrant } from './doors/sharedRateLimit';
export type { ApiKey } from './doors/apiKeys';
export type { OpenApiOptions } from './doors/openapi';
export type { AppToolCallRequest, AppViewRequest } from './host/mcpAppAccess';
export type { McpAppCsp, McpAppResource } from './mcpApp';
export { APP_FRAME_PATH, appFrameResponse } from './mcpAppFrame';
