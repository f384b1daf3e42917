import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { ChatSurface, createLocalWorkspace } from 'chatsurface';
import 'chatsurface/styles.css';
import './demo.css';
import { demoAnticipation } from './anticipation';
import { demoCapabilities } from './capabilities';

const workspace = createLocalWorkspace({ capabilities: demoCapabilities(), anticipation: demoAnticipation });

const VIEWS = [
  { kind: 'notes', title: 'Notes' },
  { kind: 'reports', title: 'Reports' },
] as const;

/** The host page: a view switcher beside the chat; the chat's suggestions follow the view. */
function Demo() {
  const [view, setView] = useState<(typeof VIEWS)[number]>(VIEWS[0]);
  const [theme, setTheme] = useState<'host' | 'system' | 'light' | 'dark'>('host');
  return (
    <main className="demo">
      <h1>ChatSurface demo</h1>
      <p className="demo-hint">
        Try “what can you do?”, “current time”, “add note call Ada” or “build report sections=4” (Stop or Escape stops it), or a suggestion chip.
      </p>
      <div className="demo-bar">
        <nav aria-label="Host views">
          {VIEWS.map((v) => (
            <button key={v.kind} type="button" aria-pressed={view.kind === v.kind} onClick={() => setView(v)}>
              {v.title}
            </button>
          ))}
        </nav>
        <label>
          Theme{' '}
          <select value={theme} onChange={(event) => setTheme(event.target.value as typeof theme)}>
            <option value="host">Page</option>
            <option value="system">System</option>
            <option value="light">Light</option>
            <option value="dark">Dark</option>
          </select>
        </label>
      </div>
      <ChatSurface workspace={workspace} activeView={view} theme={theme} starters={['What can you do?', 'add note call Ada']} />
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Demo />
  </StrictMode>,
);
