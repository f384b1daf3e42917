// The AG-UI entry: <ChatSurface> on any AG-UI agent, in the browser or Node. Needs the optional peers
// @ag-ui/client and @ag-ui/core, loaded on the first run (a MissingPeerError names what to install).
export { createAgUiWorkspace } from './workspace/agUiWorkspace';
export type { AgUiWorkspaceOptions } from './workspace/agUiWorkspace';
