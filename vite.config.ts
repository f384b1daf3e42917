/// <reference types="vitest/config" />
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** The demo imports the kit by its package name, exactly as a host app would. */
const alias = [
  { find: /^chatsurface\/runtime$/, replacement: here('./src/runtime/index.ts') },
  { find: /^chatsurface\/server$/, replacement: here('./src/server/index.ts') },
  { find: /^chatsurface\/mcp$/, replacement: here('./src/mcp.ts') },
  { find: /^chatsurface\/anthropic$/, replacement: here('./src/anthropic.ts') },
  { find: /^chatsurface\/openai$/, replacement: here('./src/openai.ts') },
  { find: /^chatsurface\/ag-ui$/, replacement: here('./src/ag-ui.ts') },
  { find: /^chatsurface\/internal$/, replacement: here('./src/internal.ts') },
  { find: /^chatsurface\/testing$/, replacement: here('./src/testing.ts') },
  { find: /^chatsurface\/styles\.css$/, replacement: here('./src/styles.css') },
  { find: /^chatsurface$/, replacement: here('./src/index.ts') },
];

/** Every dependency and peer stays external to the library build (and every Node built-in). */
const pkg = JSON.parse(readFileSync(here('./package.json'), 'utf8')) as {
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};
const external = [
  ...Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies }).map((name) => new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}($|/)`)),
  /^node:/,
];

/** The entry points keep the file names of package.json's exports. */
const ENTRY_FILES: Record<string, string> = {
  index: 'index.js',
  'runtime/index': 'runtime.js',
  'server/index': 'server.js',
  mcp: 'mcp.js',
  anthropic: 'anthropic.js',
  openai: 'openai.js',
  'ag-ui': 'ag-ui.js',
  internal: 'internal.js',
  testing: 'testing.js',
};

/**
 * The browser entry and its React modules start with 'use client', so a React Server Component
 * tree (Next.js App Router) can import chatsurface: they run on the client side of the boundary.
 * The runtime and server modules stay plain, usable on either side.
 */
const CLIENT_MODULE = /^(index|components\/.+|hooks\/.+)$/;

/** The sizing fixtures (e2e/sizing.spec.ts): the README snippet in each common parent. */
const SIZING_PAGES = Object.fromEntries(
  ['vite-react', 'vite-react-ts', 'next-app', 'flex-min-height', 'grid-cell', 'scrolling-block'].map((name) => [`sizing-${name}`, here(`./e2e/pages/sizing/${name}.html`)]),
);

export default defineConfig(({ mode }) => {
  if (mode === 'lib') {
    // The library: ESM, one file per module; dependencies stay external.
    return {
      plugins: [react()],
      logLevel: 'warn',
      build: {
        outDir: 'dist',
        emptyOutDir: true,
        sourcemap: true,
        cssCodeSplit: false,
        lib: {
          entry: {
            index: here('./src/index.ts'),
            runtime: here('./src/runtime/index.ts'),
            server: here('./src/server/index.ts'),
            mcp: here('./src/mcp.ts'),
            anthropic: here('./src/anthropic.ts'),
            openai: here('./src/openai.ts'),
            'ag-ui': here('./src/ag-ui.ts'),
            internal: here('./src/internal.ts'),
            testing: here('./src/testing.ts'),
          },
          formats: ['es'],
        },
        rolldownOptions: {
          external,
          output: {
            // One file per source module, so a host's bundler keeps only the modules it reaches:
            // a page with the remote workspace never loads the engine or classic zod schemas.
            preserveModules: true,
            preserveModulesRoot: 'src',
            entryFileNames: (chunk) => ENTRY_FILES[chunk.name] ?? '[name].js',
            banner: (chunk) => (CLIENT_MODULE.test(chunk.name) ? "'use client';" : ''),
          },
        },
      },
    };
  }
  return {
    plugins: [react()],
    resolve: { alias },
    // mermaid (an optional peer, here for the stories and tests) is not pre-bundled by the demo's
    // and the e2e pages' dev servers: its bundle held every start, and a restarted demo, for minutes.
    optimizeDeps: { exclude: ['mermaid'] },
    server: { host: '127.0.0.1', port: Number(process.env.PORT ?? 5173), strictPort: true },
    preview: { host: '127.0.0.1', port: Number(process.env.PORT ?? 4173), strictPort: true },
    build: {
      outDir: 'dist-demo',
      emptyOutDir: true,
      target: 'es2022',
      rolldownOptions: { input: { main: here('./index.html'), playground: here('./playground.html'), hostile: here('./e2e/pages/hostile.html'), ...SIZING_PAGES } },
    },
    test: {
      projects: [
        {
          extends: true,
          test: { name: 'node', environment: 'node', globalSetup: ['./src/test/postgresGlobalSetup.ts'], setupFiles: ['./src/test/eventSchemas.ts'], include: ['src/runtime/**/*.test.ts', 'src/server/**/*.test.ts', 'src/workspace/**/*.test.ts', 'src/hooks/**/*.test.ts', 'src/components/**/*.test.ts', 'api/**/*.test.ts', 'reference/**/*.test.ts'] },
        },
        {
          extends: true,
          test: {
            name: 'dom',
            environment: 'jsdom',
            include: ['src/**/*.test.tsx'],
            setupFiles: ['./src/test/setup.ts', './src/test/eventSchemas.ts'],
          },
        },
      ],
    },
  };
});
