// The MCP entry: MCP sources for the browser or Node. Needs the optional peer @modelcontextprotocol/client.
export { createMcpConnection } from './runtime/sources/mcpConnection';
export type { McpCallOptions, McpConnection, McpConnectionOptions } from './runtime/sources/mcpConnection';
export { defineMcpCapability } from './runtime/sources/mcp';
export type { McpCapabilityOptions } from './runtime/sources/mcp';
export type {
  McpCallInfo,
  McpClientRequestContext,
  McpElicitation,
  McpElicitationAnswer,
  McpElicitationValue,
  McpElicitHandler,
  McpFormElicitation,
  McpSamplingHandler,
  McpUrlElicitation,
} from './runtime/sources/mcpClientRequests';
