/**
 * The MCP conformance suite (`@modelcontextprotocol/conformance` 0.1.16, its real CLI) against the
 * MCP door of a workspace server on 127.0.0.1 that registers the suite's tools and its simple
 * prompt (`src/test/mcpConformanceSuite.ts`). Every server scenario the suite lists is either run
 * (and must pass every check but the one named for it in `KNOWN_DIFFERENCES`, which must fail) or
 * named as not applicable with the reason; the table is printed (docs/protocols.md, "The MCP
 * conformance suite").
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createWorkspaceServer, type WorkspaceServer } from './createWorkspaceServer';
import { listedScenarios, runScenarios, SCENARIOS, suitePrompt, suiteTools, table, type ScenarioResult } from '../test/mcpConformanceSuite';

let server: WorkspaceServer;
let url: string;

beforeAll(async () => {
  server = await createWorkspaceServer({
    capabilities: suiteTools,
    database: ':memory:',
    // The suite's client sends no credentials: one user, as a server on loopback without keys.
    authenticate: () => ({ user: 'suite' }),
    // DNS-rebinding protection: the names it answers on (the suite asks as localhost, then as evil.example.com).
    allowedHosts: ['localhost', '127.0.0.1'],
    workspace: { skills: [suitePrompt] },
  });
  url = `${(await server.listen({ host: '127.0.0.1', port: 0 })).url}/mcp`;
});

afterAll(async () => {
  await server?.close();
});

it('passes every server scenario of the MCP conformance suite that applies', { timeout: 90_000 }, async () => {
  const listed = await listedScenarios();
  expect(listed.length).toBeGreaterThan(20);
  // A scenario this table does not know is a new one to look at, not one to skip.
  expect(listed.filter((s) => !(s in SCENARIOS))).toEqual([]);
  const run = listed.filter((s) => SCENARIOS[s] === null);
  const results: ScenarioResult[] = [
    ...(await runScenarios(() => url, run)),
    ...listed.filter((s) => SCENARIOS[s] !== null).map((scenario) => ({ scenario, verdict: 'not applicable' as const, why: SCENARIOS[scenario]! })),
  ];
  const order = new Map(listed.map((s, i) => [s, i]));
  results.sort((a, b) => order.get(a.scenario)! - order.get(b.scenario)!);
  console.log(`\nMCP conformance, server scenarios against ${url}\n${table(results)}\n`);
  expect(results.filter((r) => r.verdict === 'failed')).toEqual([]);
});
