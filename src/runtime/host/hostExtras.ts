// The host's parts a chat may never use: the questions of MCP tools (with the form checks of
// `../elicitationFields`), MCP App views and their calls, ratings of replies. Only ever imported
// with `import()` (`./extrasOnUse`), so they load together, on first use, in a chunk of their own.
export { createElicitations } from './elicitations';
export { createFeedback } from './feedback';
export { createMcpAppAccess } from './mcpAppAccess';
