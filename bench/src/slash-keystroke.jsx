// The slash combobox with 5,000 skills (plus the built-ins), for bench/slash-keystroke.mjs.
// Every keydown's timestamp is matched with the first moment after the next paint:
// requestAnimationFrame (before the frame paints), then a MessageChannel task (after it).
import { createRoot } from 'react-dom/client';
import { ChatSurface, createLocalWorkspace } from 'chatsurface';
import { catalogNode, createOfflineDriver } from 'chatsurface/runtime';
import 'chatsurface/styles.css';

const N = 5_000;
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

const samples = [];
const work = [];
window.__samples = samples;
window.__work = work;
document.addEventListener(
  'keydown',
  (event) => {
    const t0 = event.timeStamp;
    // The work a keystroke costs, without input delivery or the wait for the next frame: from this
    // listener to the end of React's handling (window listeners run after React's root ones, and a
    // discrete event's update commits before they do) plus style and layout (forced here).
    const start = performance.now();
    const type = event.key.length === 1 || event.key === 'Backspace' ? 'input' : 'keydown';
    window.addEventListener(
      type,
      () => {
        void document.body.offsetHeight;
        work.push(performance.now() - start);
      },
      { once: true },
    );
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => samples.push(performance.now() - t0);
      channel.port2.postMessage(0);
    });
  },
  true,
);

createRoot(document.getElementById('root')).render(<ChatSurface workspace={workspace} theme="light" />);
window.__skills = N;
