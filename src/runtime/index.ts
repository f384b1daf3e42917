// The framework-free runtime: no React, no DOM, no Node built-ins.
export { anticipationKey, suggest } from './anticipation';
export type { AnticipationMap, Suggestion } from './anticipation';
export {
  ActorSchema,
  CapabilityDefinitionError,
  ToolAnnotationsSchema,
  checkDescriptor,
  defineCapability,
} from './capability';
export type {
  Actor,
  CapabilityContext,
  CapabilityDefinition,
  CapabilityDescriptor,
  CapabilityHandler,
  CapabilitySource,
  OutputStream,
  ToolAnnotations,
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
  StandingRow,
  ThreadState,
  UserRow,
  Violation,
  ViolationRow,
} from './fold';
export { createId } from './ids';
export { createMemoryJobStore } from './jobs';
export type { Job, JobStatus, JobStore } from './jobs';
export { invoke } from './invoke';
export type { InvokeOptions } from './invoke';
export type { DriverChunk, ModelDriver, ModelMessage, ModelRequest } from './model';
export { createOfflineDriver } from './offlineDriver';
export type { OfflineDriverOptions } from './offlineDriver';
export { createRegistry, toJsonSchema } from './registry';
export type { CapabilityInfo, Registry } from './registry';
export { builtInNodes, builtInSkills } from './slash/builtins';
export { createCatalog } from './slash/catalog';
export type { Catalog } from './slash/catalog';
export { dispatchSlash, loadSkillText, splitSlash } from './slash/dispatch';
export type { DispatchContext, SlashOutcome } from './slash/dispatch';
export { SkillActionSchema, SkillDefinitionSchema, catalogNode } from './slash/nodes';
export type { CatalogNode, NodeType, SkillAction, SkillDefinition } from './slash/nodes';
export { NodeQueryError, parseNodeQuery } from './slash/query';
export type { NodeQuery, QueryContext } from './slash/query';
export { findRepetition } from './slash/repetition';
export type { Repetition } from './slash/repetition';
export { SkillFileError, parseSkillMarkdown } from './slash/skillMarkdown';
export { runTurn } from './turn';
export type { TurnOptions } from './turn';
