import { createRemoteWorkspace } from 'chatsurface';
import 'chatsurface/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import './app.css';

const root = createRoot(document.getElementById('root')!);
try {
  // The kit's server answers on this page's own origin (npm run demo mounts it beside the page).
  const workspace = await createRemoteWorkspace({ url: '' });
  root.render(
    <StrictMode>
      <App workspace={workspace} />
    </StrictMode>,
  );
} catch (error) {
  root.render(
    <p role="alert" className="app-error">
      The demo server did not answer ({error instanceof Error ? error.message : String(error)}). Start it with <code>npm run demo</code>.
    </p>,
  );
}
