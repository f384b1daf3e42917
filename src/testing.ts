// The testing entry: for a host's own component tests and stories of the surface (jsdom, Storybook).
// A scripted workspace (a real WorkspaceAdapter whose model is a script) and jsdom's missing layout.
export { scriptedWorkspace } from './components/testing/scriptedWorkspace';
export type { ScriptApi, ScriptedWorkspace, ScriptedWorkspaceOptions } from './components/testing/scriptedWorkspace';
export { stubTranscriptLayout } from './components/testing/layout';
export type { LayoutStub } from './components/testing/layout';
