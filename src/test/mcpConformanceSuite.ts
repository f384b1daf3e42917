/**
 * What the MCP conformance suite (`@modelcontextprotocol/conformance` 0.1.16) needs of a server
 * under test, as this kit registers it: the suite's tools as capabilities (names and results as
 * its scenarios' "Server Implementation Requirements" say), its prompt `test_simple_prompt` as an
 * instruction skill (the door's prompts are slash skills), and the table of scenarios with what
 * each one's result means here. Used by `src/server/mcpConformanceSuite.test.ts`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { defineCapability } from '../runtime/capability';
import { catalogNode, type CatalogNode } from '../runtime/catalogNodes';
import { errorResult, textResult } from '../runtime/results';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const WAV = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=';
const noArgs = z.object({});
const wait = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** The suite's tools, each answering as its scenario asks. */
export const suiteTools = [
  defineCapability({ name: 'test_simple_text', title: 'Simple text', description: 'Returns simple text.', input: noArgs, handler: () => textResult('This is a simple text response for testing.') }),
  defineCapability({
    name: 'test_image_content',
    title: 'Image',
    description: 'Returns an image.',
    input: noArgs,
    handler: () => ({ content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] }),
  }),
  defineCapability({
    name: 'test_audio_content',
    title: 'Audio',
    description: 'Returns audio.',
    input: noArgs,
    handler: () => ({ content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }] }),
  }),
  defineCapability({
    name: 'test_embedded_resource',
    title: 'Embedded resource',
    description: 'Returns an embedded resource.',
    input: noArgs,
    handler: () => ({ content: [{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } }] }),
  }),
  defineCapability({
    name: 'test_multiple_content_types',
    title: 'Mixed content',
    description: 'Returns text, an image and a resource.',
    input: noArgs,
    handler: () => ({
      content: [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: PNG, mimeType: 'image/png' },
        { type: 'resource', resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: '{"test":"data","value":123}' } },
      ],
    }),
  }),
  defineCapability({ name: 'test_error_handling', title: 'Error', description: 'Always fails.', input: noArgs, handler: () => errorResult('This tool intentionally returns an error for testing') }),
  defineCapability({
    name: 'test_tool_with_progress',
    title: 'Progress',
    description: 'Reports progress 0, 50, 100 of 100.',
    input: noArgs,
    handler: async (_args, ctx) => {
      for (const step of [0, 50, 100]) {
        ctx.progress(step, 100);
        await wait(50);
      }
      return textResult('Progress tool done.');
    },
  }),
  defineCapability({
    name: 'test_tool_with_logging',
    title: 'Logging',
    description: 'Works in three steps (the door logs each).',
    input: noArgs,
    handler: async (_args, ctx) => {
      for (const message of ['Tool execution started', 'Tool processing data', 'Tool execution completed']) {
        ctx.progress(1, undefined, message);
        await wait(50);
      }
      return textResult('Logging tool done.');
    },
  }),
  defineCapability({
    name: 'json_schema_2020_12_tool',
    title: 'JSON Schema 2020-12',
    description: 'Tool with JSON Schema 2020-12 features',
    input: z.strictObject({
      name: z.string().optional(),
      address: z.object({ street: z.string().optional(), city: z.string().optional() }).meta({ id: 'address' }).optional(),
    }),
    handler: (args) => textResult(JSON.stringify(args)),
  }),
  defineCapability({
    name: 'test_reconnection',
    title: 'Reconnection',
    description: 'Answers after a short wait (the suite reads its answer from an SSE stream).',
    input: noArgs,
    handler: async () => {
      await wait(100);
      return textResult('Reconnection test completed successfully');
    },
  }),
];

/** The suite's `test_simple_prompt`, as an instruction skill: `prompts/get` answers with its instructions as a user message. */
export const suitePrompt: CatalogNode = catalogNode('Skill/test_simple_prompt', {
  nodeType: 'Skill',
  name: '/test_simple_prompt',
  description: 'A simple prompt for testing.',
  skill: { instructions: 'This is a simple prompt for testing.', autoMount: false, launchesSubThread: false },
});

export type Verdict = 'passed' | 'failed' | 'not applicable' | 'known difference';

/**
 * Checks that fail on purpose, per scenario, and why (the suite's own "expected failures", kept
 * to the check): any other failed check of that scenario still fails it, and so does one of these
 * that starts to pass (the table is then out of date).
 */
export const KNOWN_DIFFERENCES: Record<string, Record<string, string>> = {
};

/**
 * Every server scenario of the suite, and why those this door does not run do not apply. A
 * scenario listed without a reason is run; one the suite lists that is missing here fails the
 * test, so a new suite version is looked at rather than skipped.
 */
export const SCENARIOS: Record<string, string | null> = {
  'server-initialize': null,
  'logging-set-level': null,
  ping: null,
  'completion-complete': null,
  'tools-list': null,
  'tools-call-simple-text': null,
  'tools-call-image': null,
  'tools-call-audio': null,
  'tools-call-embedded-resource': null,
  'tools-call-mixed-content': null,
  'tools-call-with-logging': null,
  'tools-call-error': null,
  'tools-call-with-progress': null,
  'tools-call-sampling': 'the door asks its clients nothing but approvals: no tool of this kit samples the client model',
  'tools-call-elicitation': 'the door asks its clients nothing but approvals (a form of its own, not the suite\'s fields)',
  'json-schema-2020-12': null,
  'elicitation-sep1034-defaults': 'the door asks its clients nothing but approvals',
  'server-sse-polling': null,
  'server-sse-multiple-streams': null,
  'elicitation-sep1330-enums': 'the door asks its clients nothing but approvals',
  'resources-list': null,
  'resources-read-text': 'resources are the principal\'s job records (chatsurface://jobs/{id}), not host-defined test:// resources',
  'resources-read-binary': 'resources are job records (JSON text); there is no binary resource',
  'resources-templates-read': 'the one template is chatsurface://jobs/{id}; test://template/{id}/data is not served',
  'resources-subscribe': 'resources/subscribe is not served (the capability is not declared)',
  'resources-unsubscribe': 'resources/subscribe is not served (the capability is not declared)',
  'prompts-list': null,
  'prompts-get-simple': null,
  'prompts-get-with-args': 'prompts are slash skills, which take one argument, "task" (not arg1 and arg2)',
  'prompts-get-embedded-resource': 'prompts are slash skills: their messages are text, with no embedded resource',
  'prompts-get-with-image': 'prompts are slash skills: their messages are text, with no image',
  'dns-rebinding-protection': null,
};


export interface ScenarioResult {
  scenario: string;
  verdict: Verdict;
  /** Why it does not apply, or the failed checks' messages. */
  why: string;
}

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
}

const CLI = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/conformance/dist/index.js', import.meta.url));
const HOOKS = fileURLToPath(new URL('./mcpConformanceHooks.mjs', import.meta.url));

/** The suite's own list of server scenarios (`conformance list`). */
export async function listedScenarios(): Promise<string[]> {
  const { stdout } = await runCli(['list'], process.cwd());
  const server = stdout.split(/Client scenarios/)[0] ?? '';
  return [...server.matchAll(/^\s+- ([a-z0-9-]+)/gm)].map((m) => m[1]!);
}

/**
 * Runs the suite's CLI once per scenario against `url` (in parallel, a few at a time), each in a
 * scratch directory, and reads each one's `checks.json`: failed when any check is FAILURE.
 */
export async function runScenarios(urlOf: (scenario: string) => string, scenarios: readonly string[], parallel = 4): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  const queue = [...scenarios];
  const worker = async () => {
    for (let scenario = queue.shift(); scenario; scenario = queue.shift()) results.push(await runScenario(urlOf(scenario), scenario));
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  const order = new Map(scenarios.map((s, i) => [s, i]));
  return results.sort((a, b) => order.get(a.scenario)! - order.get(b.scenario)!);
}

async function runScenario(url: string, scenario: string): Promise<ScenarioResult> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-conformance-'));
  try {
    const { code, stdout, stderr } = await runCli(['server', '--url', url, '--scenario', scenario, '--output-dir', join(dir, 'results')], dir);
    const checks = readChecks(join(dir, 'results'));
    if (!checks) return { scenario, verdict: 'failed', why: `no checks.json (exit ${code}): ${(stderr || stdout).trim().slice(-300)}` };
    const known = KNOWN_DIFFERENCES[scenario] ?? {};
    const failed = checks.filter((c) => c.status === 'FAILURE' && !(c.id in known));
    if (failed.length) return { scenario, verdict: 'failed', why: failed.map((c) => `${c.id}: ${c.errorMessage ?? 'failed'}`).join('; ') };
    const stale = Object.keys(known).filter((id) => !checks.some((c) => c.id === id && c.status === 'FAILURE'));
    if (stale.length) return { scenario, verdict: 'failed', why: `expected to fail but did not: ${stale.join(', ')} (update KNOWN_DIFFERENCES)` };
    const passed = checks.filter((c) => c.status === 'SUCCESS').length;
    const warned = checks.filter((c) => c.status === 'WARNING');
    const notes = warned.length ? `; warnings: ${warned.map((c) => `${c.id}${c.errorMessage ? ` (${c.errorMessage})` : ''}`).join('; ')}` : '';
    if (Object.keys(known).length) {
      return { scenario, verdict: 'known difference', why: `${passed} checks passed; ${Object.entries(known).map(([id, why]) => `${id} fails: ${why}`).join('; ')}${notes}` };
    }
    return { scenario, verdict: 'passed', why: `${passed} checks passed${notes}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function readChecks(results: string): Check[] | null {
  let dirs: string[];
  try {
    dirs = readdirSync(results);
  } catch {
    return null;
  }
  const checks: Check[] = [];
  for (const dir of dirs) {
    try {
      checks.push(...(JSON.parse(readFileSync(join(results, dir, 'checks.json'), 'utf8')) as Check[]));
    } catch {
      return null;
    }
  }
  return dirs.length ? checks : null;
}

function runCli(args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', HOOKS, CLI, ...args], { cwd, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

/** The table, one row per scenario, as the test prints it. */
export function table(rows: readonly ScenarioResult[]): string {
  const width = Math.max(...rows.map((r) => r.scenario.length), 'scenario'.length);
  const lines = rows.map((r) => `${r.scenario.padEnd(width)}  ${r.verdict.padEnd(16)}  ${r.why}`);
  const count = (v: Verdict) => rows.filter((r) => r.verdict === v).length;
  return [
    `${'scenario'.padEnd(width)}  ${'result'.padEnd(16)}  why`,
    ...lines,
    `${count('passed')} passed, ${count('known difference')} with a known difference, ${count('failed')} failed, ${count('not applicable')} not applicable (MCP conformance 0.1.16)`,
  ].join('\n');
}
