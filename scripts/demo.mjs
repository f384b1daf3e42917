// `npm run demo`: install what is missing, then serve the demo on 127.0.0.1 (PORT overrides 5173).
import { spawn } from 'node:child_process';
import { ensureDependencies, root } from './setup.mjs';

ensureDependencies();
const port = process.env.PORT ?? '5173';
console.log(`ChatSurface demo: http://127.0.0.1:${port}/  (offline model, no key needed)`);
const child = spawn('npx', ['vite', '--host', '127.0.0.1', '--port', port, '--strictPort'], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
