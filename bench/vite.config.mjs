// Vite config of the bench pages (root: this folder). One html entry per build, like the shared
// harness's apps, so every page is bundled on its own:
//   ENTRY=bench.html|host.html|bare.html  OUT=<dir>  vite build --config bench/vite.config.mjs
// The kit is imported from src/ (the same aliases as the demo); the harness's page helpers from
// ../shared/bench/harness/pagekit.js beside the clone (BENCH_SHARED=<bench folder> overrides).
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..');
const shared = resolve(process.env.BENCH_SHARED || resolve(repo, '../shared/bench'));
const entry = process.env.ENTRY || 'bench.html';
// KIT=dist: import the built package (dist/, `npm run build` first), as a host app does; default src/.
const kit =
  process.env.KIT === 'dist'
    ? { runtime: 'dist/runtime.js', internal: 'dist/internal.js', styles: 'dist/styles.css', index: 'dist/index.js' }
    : { runtime: 'src/runtime/index.ts', internal: 'src/internal.ts', styles: 'src/styles.css', index: 'src/index.ts' };

export default defineConfig({
  root: here,
  base: './',
  plugins: [react()],
  logLevel: 'warn',
  resolve: {
    alias: [
      { find: /^chatsurface\/runtime$/, replacement: resolve(repo, kit.runtime) },
      { find: /^chatsurface\/internal$/, replacement: resolve(repo, kit.internal) },
      { find: /^chatsurface\/styles\.css$/, replacement: resolve(repo, kit.styles) },
      { find: /^chatsurface$/, replacement: resolve(repo, kit.index) },
      { find: /^@bench\/pagekit$/, replacement: resolve(shared, 'harness/pagekit.js') },
    ],
  },
  server: { host: '127.0.0.1', port: Number(process.env.PORT ?? 5180), strictPort: true, fs: { allow: [repo, shared] } },
  preview: { host: '127.0.0.1', port: Number(process.env.PORT ?? 4180), strictPort: true },
  build: {
    outDir: resolve(process.env.OUT || resolve(repo, 'bench-results/pages', entry.replace(/\.html$/, ''))),
    emptyOutDir: true,
    sourcemap: false,
    manifest: true,
    chunkSizeWarningLimit: 100000,
    rollupOptions: { input: resolve(here, entry) },
  },
});
