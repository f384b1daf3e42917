#!/usr/bin/env node
// Prompt-cache bench: a scripted 20-turn session through the real turn engine, the Anthropic
// driver and @anthropic-ai/sdk, against the fake Messages API on 127.0.0.1, which applies
// Anthropic's prefix rule (a prefix up to a breakpoint that matches an earlier request is read
// from cache; up to 4 breakpoints; 20-block lookback; a minimum cacheable size). It reports:
//   - the share of input tokens read from cache from turn 2 on, with a stable whitelist;
//   - the same when a view change before turn 11 alters the whitelist;
//   - the same when the model consults a SKILL.md in turn 12 (its body joins the active-skills slab
//     for the rest of that turn and after: one cache write, then reads again);
//   - the request bytes per turn.
// Tokens are the fake's estimate (UTF-8 bytes / 4 per prompt block), not a real tokenizer.
// The TypeScript sources are loaded through Vite's SSR loader (no build needed).
// usage: node bench/cache-bench.mjs [--turns 20] [--change-at 11] [--min-cache-tokens 1024] [--json]
//   prints a readable report on stderr and one JSON line on stdout.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';
import { z } from 'zod';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const opt = (name, def) => {
  const i = argv.indexOf('--' + name);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1] : def;
};
const TURNS = Number(opt('turns', '20'));
const CHANGE_AT = Number(opt('change-at', '11'));
const SKILL_AT = Number(opt('skill-at', '12'));
const MIN_CACHE = Number(opt('min-cache-tokens', '1024'));

const vite = await createServer({
  configFile: false, root: repo, logLevel: 'error', appType: 'custom',
  server: { middlewareMode: true, hmr: false, watch: null }, optimizeDeps: { noDiscovery: true, include: [] },
});
const load = (path) => vite.ssrLoadModule(path);
const { startFakeAnthropic } = await load('/src/runtime/node/fakeAnthropic.ts');
const { defineCapability, defineSkillCapability, textResult } = await load('/src/runtime/index.ts');
const { createAnthropicDriver } = await load('/src/anthropic.ts');
const { createLocalWorkspace } = await load('/src/workspace/localWorkspace.ts');

// ---------------------------------------------------------------- the host's workspace
const ok = (text, data) => async () => textResult(text, data);
const capabilities = [
  defineCapability({
    name: 'records.list', title: 'List records', description: 'Lists records of the workspace, newest first, optionally filtered by owner or status.',
    input: z.object({ limit: z.number().int().min(1).max(200).default(50), owner: z.string().optional(), status: z.enum(['open', 'won', 'lost']).optional() }),
    handler: ok('12 records: 7 open, 3 won, 2 lost.', { count: 12 }),
  }),
  defineCapability({
    name: 'records.search', title: 'Search records', description: 'Full-text search over record names, emails and notes; returns the best matches.',
    input: z.object({ query: z.string().min(1), fields: z.array(z.enum(['name', 'email', 'notes'])).optional() }),
    handler: ok('3 matches: Ada Lovelace, A. Lovelace (duplicate email), Lovelace Ltd.', { count: 3 }),
  }),
  defineCapability({
    name: 'records.import_csv', title: 'Import CSV', description: 'Imports records from a CSV file in the uploads folder; one record per non-blank row.',
    kind: 'mutate', annotations: { destructiveHint: false },
    input: z.object({ file: z.string().min(1), delimiter: z.enum([',', ';', '\t']).default(','), header: z.boolean().default(true) }),
    handler: ok('Imported 24 rows.', { inserted: 24 }),
  }),
  defineCapability({
    name: 'enrich.batch', title: 'Enrich records', description: 'Adds company data (size, industry, website) to records from the public registry; slow, reports progress per record.',
    kind: 'mutate', annotations: { destructiveHint: false },
    input: z.object({ limit: z.number().int().min(1).max(100).default(10), fields: z.array(z.enum(['size', 'industry', 'website'])).default(['size', 'industry']) }),
    handler: ok('Enriched 22 of 24 records; 2 had no registry match.', { enriched: 22, failed: 2 }),
  }),
  defineCapability({
    name: 'crm.export', title: 'Export to CRM', description: 'Sends the selected records to the CRM as a file export.',
    kind: 'mutate', requires_user_confirmation: true, annotations: { destructiveHint: false },
    input: z.object({ format: z.enum(['csv', 'json']).default('csv'), ids: z.array(z.string()).min(1) }),
    handler: ok('Exported.'),
  }),
  defineCapability({
    name: 'corpus.search', title: 'Search documents', description: 'Searches the bundled guides and playbooks; returns passages with their titles.',
    input: z.object({ query: z.string().min(1), top_k: z.number().int().min(1).max(10).default(3) }),
    handler: ok('2 passages from "Crawling politely": wait between requests; respect robots.txt.', { count: 2 }),
  }),
  defineCapability({
    name: 'report.build', title: 'Build report', description: 'Builds a summary report of recent activity in several sections.',
    input: z.object({ sections: z.number().int().min(1).max(20).default(5), title: z.string().optional() }),
    handler: ok('Report with 3 sections: imports, enrichment, open deals.', { sections: 3 }),
  }),
  defineCapability({
    name: 'notes.add', title: 'Add note', description: 'Saves a short note to the workspace.',
    kind: 'mutate', annotations: { destructiveHint: false },
    input: z.object({ text: z.string().min(1).max(500) }),
    handler: ok('Saved the note.'),
  }),
];
/** A SKILL.md the model consults mid-session: about 1,800 tokens of instructions. */
const crawlSkill = defineSkillCapability(
  `---\nname: crawl-guide\ndescription: How this team crawls a site politely and ingests what it fetched.\n---\n${Array.from(
    { length: 40 },
    (_, i) => `${i + 1}. When crawling, step ${i + 1}: wait between requests to one host, honour robots.txt, log the fetch time, and ingest in a second pass (rule ${i + 1}).`,
  ).join('\n')}`,
  { file: 'crawl-guide/SKILL.md', title: 'Crawl guide' },
);
const reminders = [
  'Amounts are in EUR; dates are in the Europe/Berlin time zone.',
  'Never export records to the CRM without the account owner in the loop.',
  'Lead records imported from CSV are marked "unverified" until enriched.',
].join('\n');
const anticipation = {
  'record_list::none': [{ capability: 'records.import_csv', hint: 'Import a CSV of leads' }, { capability: 'records.list', hint: 'See the newest records' }],
  'record_list::records.import_csv': [{ capability: 'enrich.batch', hint: 'Enrich the new records', prefill: { limit: 24 } }],
  'record_list::enrich.batch': [{ capability: 'crm.export', hint: 'Export the enriched records' }],
  'report::none': [{ capability: 'report.build', hint: 'Build this week\'s report' }],
};
const whitelist = ({ view }) =>
  view?.kind === 'report' ? ['corpus.search', 'notes.add', 'records.list', 'report.build'] : undefined;
const passages = [
  { id: 'guide-crawl-1', title: 'Crawling politely', text: 'Wait at least one second between requests to the same host, honour robots.txt, identify the crawler in its user agent, and stop when a site answers 429. Keep a per-host queue so one slow site does not hold the others.' },
  { id: 'guide-crawl-2', title: 'Crawling politely', text: 'Fetch, then ingest: store the raw page first, parse it in a second step, and keep the fetch time so a re-crawl can ask for changes only (If-Modified-Since).' },
];

// ---------------------------------------------------------------- the script: 20 user turns
const SCRIPT = [
  { say: 'What can you help me with here?', answer: 'I can list, search, import and enrich records, add notes, search the guides, build reports and export to the CRM with your approval.' },
  { say: 'Show me the records owned by Ada', tool: ['records_list', { owner: 'Ada', limit: 50 }], answer: 'Ada owns 12 records: 7 open, 3 won and 2 lost.' },
  { say: 'How many of them are still open?', answer: 'Seven of Ada\'s records are open; the oldest has been open since June.' },
  { say: 'Import the new leads file leads-2026-08.csv', tool: ['records_import_csv', { file: 'leads-2026-08.csv', delimiter: ',', header: true }], answer: 'I imported 24 rows from leads-2026-08.csv. They are marked unverified until they are enriched.' },
  { say: 'Enrich the new records with company data', tool: ['enrich_batch', { limit: 24, fields: ['size', 'industry'] }], answer: 'I enriched 22 of the 24 new records; 2 had no match in the registry.' },
  { say: 'Which ones failed to enrich?', answer: 'Two records had no registry match: Nimbus GmbH and a lead without a company name.' },
  { say: 'Search the records for Lovelace', tool: ['records_search', { query: 'Lovelace' }], answer: 'Three records match Lovelace; two of them share an email address, so they are probably duplicates.' },
  { say: 'Add a note: call Ada on Monday', tool: ['notes_add', { text: 'Call Ada on Monday' }], answer: 'Saved the note to call Ada on Monday.' },
  { say: 'Summarize what changed today', answer: 'Today you imported 24 leads, enriched 22 of them, found a likely duplicate for Lovelace and saved one note.' },
  { say: 'List the records with status open, limit 20', tool: ['records_list', { status: 'open', limit: 20 }], answer: 'Here are the 7 open records, newest first.' },
  { say: 'Build a short report on this week\'s imports', tool: ['report_build', { sections: 3, title: 'Imports this week' }], answer: 'The report has three sections: imports, enrichment and open deals.' },
  { say: 'What does our guide say about crawling politely?', tool: ['corpus_search', { query: 'crawling politely', top_k: 2 }], answer: 'The guide says to wait between requests to a host, honour robots.txt and stop on 429, and to fetch first and ingest in a second step.' },
  { say: 'Thanks. Any duplicates among the new leads?', answer: 'Only the Lovelace pair looks like a duplicate among the new leads.' },
  { say: 'Search the records for duplicates by email', tool: ['records_search', { query: 'duplicate email', fields: ['email'] }], answer: 'The email search finds the same Lovelace pair and nothing else.' },
  { say: 'Merge them? No, just list them', tool: ['records_list', { limit: 50 }], answer: 'Listed; the two Lovelace records are next to each other at the top.' },
  { say: 'Add a note to review duplicates on Friday', tool: ['notes_add', { text: 'Review duplicates on Friday' }], answer: 'Saved a note to review duplicates on Friday.' },
  { say: 'How many records do we have in total now?', tool: ['records_list', { limit: 200 }], answer: 'There are 36 records in total now.' },
  { say: 'Compare this month with last month', answer: 'This month has 24 new leads against 9 last month; the share of won deals is about the same.' },
  { say: 'What should I do next?', answer: 'Enrich the two unmatched records by hand, review the duplicates and then export the enriched records to the CRM.' },
  { say: 'Thanks, that is all for today', answer: 'You are welcome. Your notes are saved for Monday and Friday.' },
];

/**
 * Runs the whole session; `changeAt` (1-based) switches the view to one with another whitelist
 * before that turn; `skillAt` makes the model consult the crawl-guide skill first in that turn.
 */
async function session(changeAt, skillAt = Infinity) {
  let turn = 0;
  const turnOf = [];
  const fake = await startFakeAnthropic({
    minCacheTokens: MIN_CACHE,
    reply: (request, index) => {
      turnOf[index] = turn;
      const step = SCRIPT[(turn - 1) % SCRIPT.length];
      const last = request.body.messages.at(-1)?.content?.at?.(-1);
      const available = new Set(request.body.tools.map((t) => t.name));
      if (turn === skillAt && last?.type !== 'tool_result') return { content: [{ type: 'tool_use', name: 'crawl-guide', input: {} }] };
      if (step.tool && last?.type !== 'tool_result' && available.has(step.tool[0])) {
        return { content: [{ type: 'tool_use', name: step.tool[0], input: step.tool[1] }] };
      }
      return { text: step.answer };
    },
  });
  try {
    const ws = createLocalWorkspace({
      capabilities: Number.isFinite(skillAt) ? [...capabilities, crawlSkill] : capabilities, alignment: 'loose', reminders, anticipation, whitelist,
      driver: createAnthropicDriver({ apiKey: fake.apiKey, baseURL: fake.url, maxRetries: 0 }),
      retrieve: async ({ text }) => (/guide|crawl/i.test(text) ? passages : []),
    });
    const failures = [];
    ws.subscribe('bench', (e) => {
      if (e.type === 'turn.error' || e.type === 'capability.error') failures.push(`${e.type}: ${e.message ?? e.error?.message}`);
    });
    ws.setView({ threadId: 'bench', view: { kind: 'record_list' } });
    for (turn = 1; turn <= TURNS; turn++) {
      if (turn === changeAt) ws.setView({ threadId: 'bench', view: { kind: 'report' } });
      await ws.send({ threadId: 'bench', text: SCRIPT[(turn - 1) % SCRIPT.length].say });
    }
    if (failures.length) throw new Error(`the session failed: ${failures.join(' | ')}`);
    const perTurn = Array.from({ length: TURNS }, (_, i) => ({ turn: i + 1, requests: 0, input: 0, creation: 0, read: 0, bytes: 0, breakpoints: 0 }));
    fake.requests.forEach((r, i) => {
      const t = perTurn[turnOf[i] - 1];
      t.requests += 1;
      t.input += r.usage.input_tokens;
      t.creation += r.usage.cache_creation_input_tokens;
      t.read += r.usage.cache_read_input_tokens;
      t.bytes += r.bytes;
      t.breakpoints = Math.max(t.breakpoints, r.usage.breakpoints);
    });
    return { perTurn, requests: fake.requests.map((r, i) => ({ turn: turnOf[i], bytes: r.bytes, ...r.usage })) };
  } finally {
    await fake.close();
  }
}

const share = (turns) => {
  const read = turns.reduce((n, t) => n + t.read, 0);
  const all = turns.reduce((n, t) => n + t.read + t.creation + t.input, 0);
  return all ? read / all : 0;
};

try {
  const stable = await session(Infinity);
  const changed = await session(CHANGE_AT);
  const consulted = await session(Infinity, SKILL_AT);
  // Every turn writes its own new messages (tens of tokens); a slab that changes writes thousands.
  const writesAfterTurn1 = consulted.requests.filter((r) => r.turn > 1 && r.cache_creation_input_tokens > 1_000);
  const bytes = stable.perTurn.map((t) => t.bytes);
  const requestBytes = stable.requests.map((r) => r.bytes);
  const result = {
    turns: TURNS,
    minCacheTokens: MIN_CACHE,
    requests: stable.requests.length,
    maxBreakpoints: Math.max(...stable.requests.map((r) => r.breakpoints), ...changed.requests.map((r) => r.breakpoints)),
    stable: { shareFromTurn2: share(stable.perTurn.slice(1)), perTurn: stable.perTurn },
    viewChange: {
      changeBeforeTurn: CHANGE_AT,
      shareFromTurn2: share(changed.perTurn.slice(1)),
      shareAtChange: share(changed.perTurn.slice(CHANGE_AT - 1, CHANGE_AT)),
      shareAfterChange: share(changed.perTurn.slice(CHANGE_AT)),
      perTurn: changed.perTurn,
    },
    skillLoad: {
      skillAtTurn: SKILL_AT,
      shareFromTurn2: share(consulted.perTurn.slice(1)),
      shareAtSkill: share(consulted.perTurn.slice(SKILL_AT - 1, SKILL_AT)),
      shareAfterSkill: share(consulted.perTurn.slice(SKILL_AT)),
      cacheWritesFromTurn2: writesAfterTurn1.map((r) => ({ turn: r.turn, tokens: r.cache_creation_input_tokens })),
      perTurn: consulted.perTurn,
    },
    bytes: {
      perTurn: bytes,
      meanPerTurn: bytes.reduce((a, b) => a + b, 0) / bytes.length,
      meanPerRequest: requestBytes.reduce((a, b) => a + b, 0) / requestBytes.length,
      firstRequest: requestBytes[0],
      lastRequest: requestBytes.at(-1),
    },
  };
  const pct = (x) => `${(100 * x).toFixed(1)}%`;
  const lines = [
    `Prompt cache (${TURNS}-turn scripted session, Anthropic driver + SDK against the fake API's prefix rule; min cacheable ${MIN_CACHE} tokens; tokens ≈ bytes/4)`,
    `  stable whitelist: cache-read share of input tokens, turns 2–${TURNS}: ${result.stable.shareFromTurn2.toFixed(3)} (target ≥ 0.85)`,
    `  view change before turn ${CHANGE_AT} (whitelist 8 → 4 verbs): turns 2–${TURNS} ${result.viewChange.shareFromTurn2.toFixed(3)}, turn ${CHANGE_AT} ${result.viewChange.shareAtChange.toFixed(3)}, turns ${CHANGE_AT + 1}–${TURNS} ${result.viewChange.shareAfterChange.toFixed(3)}`,
    `  a SKILL.md consulted in turn ${SKILL_AT} (its body joins the slab mid-turn): turns 2–${TURNS} ${result.skillLoad.shareFromTurn2.toFixed(3)}, turn ${SKILL_AT} ${result.skillLoad.shareAtSkill.toFixed(3)}, turns ${SKILL_AT + 1}–${TURNS} ${result.skillLoad.shareAfterSkill.toFixed(3)}; cache writes over 1,000 tokens after turn 1: ${result.skillLoad.cacheWritesFromTurn2.map((w) => `turn ${w.turn} (${w.tokens} tokens)`).join(', ') || 'none'}`,
    `  requests: ${result.requests} (tool loops included), at most ${result.maxBreakpoints} cache breakpoints per request`,
    `  request bytes per turn (all model calls of the turn): mean ${Math.round(result.bytes.meanPerTurn).toLocaleString('en-US')}; per request mean ${Math.round(result.bytes.meanPerRequest).toLocaleString('en-US')}, first ${result.bytes.firstRequest.toLocaleString('en-US')}, last ${result.bytes.lastRequest.toLocaleString('en-US')}`,
    `  per turn: ${stable.perTurn.map((t) => `${t.turn}:${t.bytes}B/${pct(share([t]))}`).join(' ')}`,
  ];
  console.error(lines.join('\n'));
  console.log(JSON.stringify(result));
} finally {
  await vite.close();
}
