import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';

/** Debian's Chromium; nothing here downloads a browser. */
const executablePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const DEMO_PORT = Number(process.env.E2E_DEMO_PORT ?? 4173);
const STORYBOOK_PORT = Number(process.env.E2E_STORYBOOK_PORT ?? 6007);
const REFERENCE_PORT = Number(process.env.E2E_REFERENCE_PORT ?? 4174);
/** The one loopback port the reference demo lets a user connect an MCP server on (e2e/byo-mcp.spec.ts starts one there). */
process.env.E2E_MCP_PORT ??= String(REFERENCE_PORT + 5);
/** The OAuth-protected MCP server and its authorization server of e2e/byo-mcp-oauth.spec.ts: the demo may reach these two loopback ports too. */
process.env.E2E_OAUTH_MCP_PORT ??= String(REFERENCE_PORT + 8);
process.env.E2E_OAUTH_ISSUER_PORT ??= String(REFERENCE_PORT + 9);
// A fresh database for the reference demo on every run (set once; workers inherit it).
process.env.E2E_REFERENCE_STATE ??= mkdtempSync(join(tmpdir(), 'chatsurface-e2e-'));

export default defineConfig({
  testDir: 'e2e',
  timeout: 30_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: true,
  reporter: [['list'], ['json', { outputFile: 'reports/playwright.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${DEMO_PORT}`,
    browserName: 'chromium',
    launchOptions: {
      executablePath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  webServer: [
    {
      // The playground page (playground.html, in-page workspace), built beforehand by `npm test` (vite build).
      command: `npx vite preview --host 127.0.0.1 --port ${DEMO_PORT} --strictPort`,
      url: `http://127.0.0.1:${DEMO_PORT}`,
      reuseExistingServer: false,
      timeout: 60_000,
    },
    {
      // The reference demo: page and kit server on one origin, exactly what `npm run demo` serves.
      command: 'node scripts/demo.mjs',
      url: `http://127.0.0.1:${REFERENCE_PORT}/v1/manifest`,
      // Enrichment at 1.5 s a record: a run stays "running" long enough to be seen and stopped on a loaded machine.
      env: { PORT: String(REFERENCE_PORT), DEMO_STATE: process.env.E2E_REFERENCE_STATE!, DEMO_QUIET: '1', DEMO_ENRICH_DELAY_MS: '1500', DEMO_CONNECTOR_HOSTS: [process.env.E2E_MCP_PORT, process.env.E2E_OAUTH_MCP_PORT, process.env.E2E_OAUTH_ISSUER_PORT].map((port) => `127.0.0.1:${port}`).join(','), DEMO_GUESTS_PER_ADDRESS: '100000' },
      reuseExistingServer: false,
      timeout: 90_000,
    },
    {
      // The static Storybook, built beforehand by `npm test` (npm run build-storybook).
      command: `npx vite preview --host 127.0.0.1 --port ${STORYBOOK_PORT} --strictPort --outDir storybook-static`,
      url: `http://127.0.0.1:${STORYBOOK_PORT}/iframe.html`,
      reuseExistingServer: false,
      timeout: 60_000,
    },
  ],
});
