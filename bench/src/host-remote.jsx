// The size page of a host whose capabilities run on its server (createWorkspaceServer holds the
// key and runs the verbs): the page ships the surface and a remote workspace, no registry, no
// capability schemas, no model driver.
import { createRoot } from 'react-dom/client';
import { ChatSurface, createRemoteWorkspace } from 'chatsurface';
import 'chatsurface/styles.css';

// (createRemoteWorkspace resolves once it knows the server's manifest; given here, at once. The
// server answers node queries, so the slash UI is live and its chunks load on idle.)
const workspace = await createRemoteWorkspace({
  url: '',
  manifest: { capabilities: [], driver: { id: 'anthropic', label: 'Claude' }, alignment: 'strict', anticipation: {}, features: ['query'] },
});
createRoot(document.getElementById('root')).render(<ChatSurface workspace={workspace} />);
