// The Node entry: the workspace server and its Node-side parts. May import node built-ins.
export { createWorkspaceServer } from './createWorkspaceServer';
export type { WorkspaceServer, WorkspaceServerOptions } from './createWorkspaceServer';
export type { McpServerConfig, McpServerStatus } from './consumeMcp';
export { threadEventResponse } from '../runtime/node/threadEventStream';
export type { ThreadEventStreamOptions } from '../runtime/node/threadEventStream';
export { openWorkspaceDatabase } from '../runtime/node/sqliteDatabase';
export type { WorkspaceDatabase } from '../runtime/node/sqliteDatabase';
export { createSqliteEventLog } from '../runtime/node/sqliteEventLog';
export type { SqliteEventLogOptions } from '../runtime/node/sqliteEventLog';
export { createSqliteJobStore } from '../runtime/node/sqliteJobStore';
export type { SqliteJobStore } from '../runtime/node/sqliteJobStore';
export { defineScriptCapability } from '../runtime/node/scriptCapability';
export type { ScriptDefinition } from '../runtime/node/scriptCapability';
export { createFileProbe } from '../runtime/node/filePostconditions';
export type { FileProbeOptions } from '../runtime/node/filePostconditions';
