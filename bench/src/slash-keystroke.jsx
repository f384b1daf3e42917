// The slash combobox with ?skills=N skills (default 5,000, plus the built-ins), for bench/slash-keystroke.mjs.
// The probe (./keystrokeProbe.js) times every keydown to its work and to the next paint.
import { createRoot } from 'react-dom/client';
import { ChatSurface, createLocalWorkspace } from 'chatsurface';
import { catalogNode, createOfflineDriver } from 'chatsurface/runtime';
import 'chatsurface/styles.css';
import { installKeystrokeProbe } from './keystrokeProbe.js';

installKeystrokeProbe();

const N = Number(new URLSearchParams(location.search).get('skills') ?? 5_000);
const skills = Array.from({ length: N }, (_, i) =>
  catalogNode(`acme/Skill/team-${i}`, {
    nodeType: 'Skill',
    name: `/team-${i}`,
    description: `Team skill number ${i}: does step ${i % 97} of the weekly process`,
    order: 50 + (i % 13),
    keywords: [`k${i % 50}`],
    skill: { instructions: 'Do the thing.', autoMount: false, launchesSubThread: false },
  }),
);
const workspace = createLocalWorkspace({ capabilities: [], space: 'acme', skills, driver: createOfflineDriver({ delayMs: 0 }) });

createRoot(document.getElementById('root')).render(<ChatSurface workspace={workspace} theme="light" />);
window.__skills = N;
