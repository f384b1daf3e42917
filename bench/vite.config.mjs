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
const fromDist = process.env.KIT === 'dist';

export default defineConfig({
  root: here,
  base: './',
  plugins: [react()],
  logLevel: 'warn',
  resolve: {
    alias: [
      ...(fromDist
        ? [
            { find: /^chatsurface\/runtime$/, replacement: resolve(repo, 'dist/runtime.js') },
            { find: /^chatsurface\/styles\.css$/, replacement: resolve(repo, 'dist/styles.css') },
            { find: /^chatsurface$/, replacement: resolve(repo, 'dist/index.js') },
          ]
        : [
            { find: /^chatsurface\/runtime$/, replacement: resolve(repo, 'src/runtime/index.ts') },
            { find: /^chatsurface\/styles\.css$/, replacement: resolve(repo, 'src/styles.css') },
            { find: /^chatsurface$/, replacement: resolve(repo, 'src/index.ts') },
          ]),
      { find: /^@bench\/pagekit$/, replacement: resolve(shared, 'harness/pagekit.js') },
    ],
  },
  server: { host: '127.0.0.1', port: Number(process.env.PORT ?? 5180), strictPort: true, fs: { allow: [repo, shared] } },
  preview: { host: '127.0.0.1', port: Number(process.env.PORT ?? 4180), strictPort: true },
  build: {
    outDir: resolve(process.env.OUT || resolve(repo, 'bench-results/pages', entry.replace(/\.html$/, ''))),
    emptyOutDir: true,
    sourcemap: process.env.SOURCEMAP === "1",
    minify: process.env.MINIFY !== "0",
    manifest: true,
    chunkSizeWarningLimit: 100000,
    rollupOptions: { input: resolve(here, entry) },
  },
});
