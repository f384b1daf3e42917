// `npm test`: install what is missing (Chromium and PostgreSQL included), run every check, and print
// one closing line `N passed, N failed` summed over all runners. Exits non-zero on any
// failure or when no test ran.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { ensureChromium, ensureDependencies, ensurePostgres, root, run } from './setup.mjs';

ensureDependencies();
process.env.CHROMIUM_PATH = ensureChromium();
// The PostgreSQL store suites start a throwaway cluster from these programs (src/test/postgres.ts);
// here they must run: a missing PostgreSQL fails them instead of skipping them.
const pgBin = ensurePostgres();
if (pgBin) process.env.CHATSURFACE_PG_BIN = pgBin;
process.env.CHATSURFACE_REQUIRE_PG = '1';

const reports = `${root}reports`;
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

/** Each check: a step counts as one test; a runner contributes its own counts from its JSON report. */
const tally = { passed: 0, failed: 0, skipped: 0 };
const lines = [];

function step(name, command, args) {
  const started = Date.now();
  const code = run(command, args);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (code === 0) tally.passed++;
  else tally.failed++;
  lines.push(`${code === 0 ? 'ok  ' : 'FAIL'} ${name} (${seconds} s)`);
  return code === 0;
}

/** The failing tests' names and first message lines, printed under the checks so the closing lines say what failed. */
const failures = [];
const firstLine = (text) => String(text ?? '').replace(/\u001b\[[0-9;]*m/g, '').split('\n').find((line) => line.trim())?.trim().slice(0, 300) ?? '';

function vitestFailures(r) {
  for (const file of r.testResults ?? []) {
    const where = file.name.replace(root, '');
    if (file.status === 'failed' && !(file.assertionResults ?? []).some((t) => t.status === 'failed')) failures.push(`${where}: ${firstLine(file.message)}`);
    for (const t of file.assertionResults ?? []) if (t.status === 'failed') failures.push(`${where} › ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
  }
}

function playwrightFailures(r) {
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests ?? [])
        if (test.status === 'unexpected' || test.status === 'flaky') {
          const error = test.results?.find((result) => result.error)?.error;
          failures.push(`${spec.file}:${spec.line} › ${[...titles, spec.title].join(' › ')} (${test.status}): ${firstLine(error?.message)}`);
        }
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title].filter(Boolean));
  };
  for (const suite of r.suites ?? []) walk(suite, []);
}

function runner(name, command, args, report, count, failed) {
  const started = Date.now();
  const code = run(command, args);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  let counts = null;
  try {
    const parsed = JSON.parse(readFileSync(report, 'utf8'));
    counts = count(parsed);
    // The list of failing tests only informs: a report it cannot read does not change the counts.
    try {
      failed(parsed);
    } catch (error) {
      failures.push(`${name}: the failing tests could not be listed (${error.message})`);
    }
  } catch {
    counts = null;
  }
  if (!counts) {
    tally.failed++;
    lines.push(`FAIL ${name}: exited ${code} without a readable report (${seconds} s)`);
    return;
  }
  tally.passed += counts.passed;
  tally.failed += counts.failed;
  tally.skipped += counts.skipped;
  // A runner that failed without a failing test (a crash, a failed global set-up) still fails.
  if (code !== 0 && counts.failed === 0) tally.failed++;
  lines.push(`${code === 0 ? 'ok  ' : 'FAIL'} ${name}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped (${seconds} s)`);
}

const npx = (...args) => ['npx', args];

step('typecheck (tsc --noEmit, strict)', ...npx('tsc', '--noEmit'));

runner(
  'unit and component tests (vitest)',
  ...npx('vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${reports}/vitest.json`),
  `${reports}/vitest.json`,
  (r) => ({ passed: r.numPassedTests, failed: r.numFailedTests + (r.numRuntimeErrorTestSuites ?? 0), skipped: r.numPendingTests + r.numTodoTests }),
  vitestFailures,
);

step('library build (vite lib + declarations)', 'npm', ['run', 'build', '--silent']);
step('browser-only install and published types (packed tarball: no native module; Vite and Next.js App Router builds; attw, publint, consumer type-checks in nodenext and bundler on TypeScript 5 and 7)', 'node', ['scripts/install-check.mjs']);
step('demo build', ...npx('vite', 'build', '--logLevel', 'warn'));
const storybookBuilt = step('Storybook build', 'npm', ['run', 'build-storybook', '--silent']);

if (storybookBuilt && existsSync(`${root}dist-demo/index.html`)) {
  runner(
    'end-to-end in Chromium (Playwright: demo, every story, axe)',
    ...npx('playwright', 'test'),
    `${reports}/playwright.json`,
    (r) => ({ passed: r.stats.expected, failed: r.stats.unexpected + r.stats.flaky, skipped: r.stats.skipped }),
    playwrightFailures,
  );
} else {
  tally.failed++;
  lines.push('FAIL end-to-end: skipped because a build it needs failed');
}

console.log('\nChecks:');
for (const line of lines) console.log(`  ${line}`);
if (failures.length) {
  console.log('\nFailed tests:');
  for (const line of failures.slice(0, 20)) console.log(`  ${line}`);
  if (failures.length > 20) console.log(`  … and ${failures.length - 20} more`);
}
const ran = tally.passed + tally.failed;
console.log(`\n${tally.passed} passed, ${tally.failed} failed${tally.skipped ? `, ${tally.skipped} skipped` : ''}`);
if (tally.failed > 0 || ran === 0) process.exit(1);
