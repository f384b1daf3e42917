import { defineConfig } from '@playwright/test';

/** Debian's Chromium; nothing here downloads a browser. */
const executablePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const DEMO_PORT = Number(process.env.E2E_DEMO_PORT ?? 4173);
const STORYBOOK_PORT = Number(process.env.E2E_STORYBOOK_PORT ?? 6007);

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
      // The demo page, built beforehand by `npm test` (npm run build:demo).
      command: `npx vite preview --host 127.0.0.1 --port ${DEMO_PORT} --strictPort`,
      url: `http://127.0.0.1:${DEMO_PORT}`,
      reuseExistingServer: false,
      timeout: 60_000,
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
