import Database from 'better-sqlite3';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CapabilityDefinitionError } from '../capability';
import { createEventLog } from '../eventLog';
import type { EventOf, ThreadEvent } from '../events';
import { foldAll, initialThreadState, type InvocationRow } from '../fold';
import { invoke, VIOLATIONS_META } from '../invoke';
import { createRegistry } from '../registry';
import { defineScriptCapability, type ScriptDefinition } from './scriptCapability';

const repoModules = join(process.cwd(), 'node_modules');
let root: string;

/** Real scripts in a temporary app root. */
const SCRIPTS: Record<string, string> = {
  'scripts/echo-args.cjs': `console.log(JSON.stringify(process.argv.slice(2)));`,
  // Creates the file named by --create=<name>, the way a careless script would.
  'scripts/maker.cjs': `
    const args = process.argv.slice(2);
    const end = args.indexOf('--');
    for (const a of end === -1 ? args : args.slice(0, end)) {
      if (a.startsWith('--create=')) require('fs').writeFileSync(a.slice(9), 'made');
    }
    console.log('positional:', JSON.stringify(end === -1 ? [] : args.slice(end + 1)));`,
  'scripts/write-note.cjs': `
    const fs = require('fs'); const path = require('path');
    fs.mkdirSync('notes', { recursive: true });
    fs.writeFileSync(path.join('notes', process.argv[2] + '.txt'), 'note');
    console.log('wrote', process.argv[2]);`,
  'scripts/ingest.cjs': `
    const fs = require('fs');
    const Database = require('better-sqlite3');
    const file = process.argv[process.argv.indexOf('--') + 1];
    const [header, ...lines] = fs.readFileSync(file, 'utf8').trim().split(/\\r?\\n/);
    const cols = header.split(',');
    const db = new Database(process.env.DB_PATH);
    const insert = db.prepare('INSERT INTO records (name, email) VALUES (?, ?)');
    let imported = 0;
    lines.forEach((line, i) => {
      const cells = line.split(',');
      const row = Object.fromEntries(cols.map((c, j) => [c.trim(), (cells[j] || '').trim()]));
      if (!row.name) { console.log('WARN: row ' + (i + 2) + ' has no name; skipped'); return; }
      insert.run(row.name, row.email || null);
      imported++;
    });
    console.log('Imported ' + imported + ' rows from ' + file);`,
  'scripts/exit.cjs': `console.error('failing on purpose'); process.exit(Number(process.argv[2]));`,
  'scripts/chatty.cjs': `
    process.stdout.write('one\\n');
    setTimeout(() => { process.stderr.write('warn: two\\n'); }, 30);
    setTimeout(() => { process.stdout.write('three\\n'); }, 60);`,
  // Starts a grandchild, records both pids (written aside, then renamed: the test waits for the
  // file to exist and must never read it half written), then waits forever.
  'scripts/tree.cjs': `
    const { spawn } = require('child_process');
    const fs = require('fs');
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    fs.writeFileSync(process.argv[2] + '.part', JSON.stringify([process.pid, child.pid]));
    fs.renameSync(process.argv[2] + '.part', process.argv[2]);
    setInterval(() => {}, 1000);`,
  'scripts/env.cjs': `console.log(JSON.stringify({ secret: process.env.CHATSURFACE_TEST_SECRET ?? null, mine: process.env.MINE ?? null }));`,
  'scripts/report.cjs': `
    const fs = require('fs');
    fs.mkdirSync('reports', { recursive: true });
    if (process.argv[3] !== 'skip') fs.writeFileSync('reports/' + process.argv[2] + '.csv', 'a,b\\n1,2\\n');
    console.log('report done');`,
  'scripts/sleep.cjs': `setTimeout(() => console.log('slept'), Number(process.argv[2]));`,
};

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'chatsurface-scripts-'));
  for (const [path, code] of Object.entries(SCRIPTS)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), code);
  }
  mkdirSync(join(root, 'data'));
  mkdirSync(join(root, 'work'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A script definition in the test's app root; title and description default to the name. */
function script(def: Partial<ScriptDefinition<z.ZodObject>> & { name: string }) {
  return defineScriptCapability({ appRoot: root, title: def.name, description: `Runs ${def.name}.`, ...def } as ScriptDefinition<z.ZodObject>);
}

async function run(descriptor: ReturnType<typeof script>, args: unknown, extra: Partial<Parameters<typeof invoke>[2]> = {}) {
  const log = createEventLog();
  const result = await invoke(descriptor.name, args, { registry: createRegistry([descriptor]), emit: log.emit, threadKey: 't1', ...extra });
  return { result, events: log.since() as ThreadEvent[] };
}

const only = <T extends ThreadEvent['type']>(events: readonly ThreadEvent[], type: T) => events.filter((e) => e.type === type) as EventOf<T>[];
const filesIn = (dir: string) => readdirSync(dir).sort();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function until(check: () => boolean, ms = 4000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return check();
}

const anyOutput = { type: 'stdout_matches', pattern: '.' } as const;

describe('script capability: hostile arguments', () => {
  const echo = () =>
    script({ name: 'util.echo', input: z.object({ text: z.string() }), command: ['node', 'scripts/echo-args.cjs', '{{text}}'], expected_effect: [anyOutput] });

  it.each([
    ['; touch x'],
    ['$(touch x)'],
    ['`touch x`'],
    ['a\ntouch x'],
    ['| touch x && touch y'],
    ["' ; touch x ; '"],
  ])('passes %j as exactly one argument and runs nothing else', async (text) => {
    const before = filesIn(root);
    const { result, events } = await run(echo(), { text });
    expect(result.isError).toBeFalsy();
    const printed = only(events, 'capability.output').map((e) => e.text).join('');
    expect(JSON.parse(printed)).toEqual([text]);
    expect(filesIn(root)).toEqual(before);
    expect(existsSync(join(root, 'x'))).toBe(false);
    expect(existsSync(join(root, 'y'))).toBe(false);
  });

  it('refuses a value with a leading "-" before the program sees it, and creates no file', async () => {
    const maker = script({ name: 'util.make', input: z.object({ name: z.string() }), command: ['node', 'scripts/maker.cjs', '{{name}}'], expected_effect: [anyOutput] });
    const { result, events } = await run(maker, { name: '--create=pwned' });
    expect(result.isError).toBe(true);
    expect(events.map((e) => e.type)).toEqual(['capability.error']);
    const error = events[0] as EventOf<'capability.error'>;
    expect(error.error.code).toBe('invalid_arguments');
    expect(error.error.issues).toEqual([{ path: 'name', message: 'must not start with "-": the program would read it as an option' }]);
    expect(existsSync(join(root, 'pwned'))).toBe(false);
  });

  it('passes a leading "-" after a "--" in the template as a plain positional argument', async () => {
    const maker = script({ name: 'util.make2', input: z.object({ name: z.string() }), command: ['node', 'scripts/maker.cjs', '--', '{{name}}'], expected_effect: [anyOutput] });
    const { result } = await run(maker, { name: '--create=pwned' });
    expect(result.content[0]).toMatchObject({ text: 'positional: ["--create=pwned"]' });
    expect(existsSync(join(root, 'pwned'))).toBe(false);
  });

  it('refuses a negative number where the program would read it as an option', async () => {
    const limit = script({ name: 'util.limit', input: z.object({ n: z.number() }), command: ['node', 'scripts/echo-args.cjs', '{{n}}'], expected_effect: [anyOutput] });
    const { result, events } = await run(limit, { n: -5 });
    expect(result.isError).toBe(true);
    expect(events.map((e) => e.type)).toEqual(['capability.error']);
    expect((events[0] as EventOf<'capability.error'>).error.issues).toEqual([{ path: 'n', message: 'must not start with "-": the program would read it as an option' }]);
    // After "--" it is a plain value.
    const after = script({ name: 'util.limit2', input: z.object({ n: z.number() }), command: ['node', 'scripts/echo-args.cjs', '--', '{{n}}'], expected_effect: [anyOutput] });
    const printed = only((await run(after, { n: -5 })).events, 'capability.output').map((e) => e.text).join('');
    expect(JSON.parse(printed)).toEqual(['--', '-5']);
  });

  it('a missing optional argument never shifts the ones after it: its option goes with it, a positional one stays as an empty argument', async () => {
    const report = script({
      name: 'util.report',
      input: z.object({ from: z.string().optional(), to: z.string(), limit: z.number().optional(), mode: z.string().optional() }),
      command: ['node', 'scripts/echo-args.cjs', '{{from}}', '{{to}}', '--limit', '{{limit}}', '--mode={{mode}}', 'end'],
      expected_effect: [anyOutput],
    });
    const argv = async (args: Record<string, unknown>) => JSON.parse(only((await run(report, args)).events, 'capability.output').map((e) => e.text).join('')) as string[];
    expect(await argv({ from: 'a', to: 'b', limit: 3, mode: 'fast' })).toEqual(['a', 'b', '--limit', '3', '--mode=fast', 'end']);
    expect(await argv({ to: 'b' })).toEqual(['', 'b', 'end']);
    expect(await argv({ from: 'a', to: 'b', mode: 'slow' })).toEqual(['a', 'b', '--mode=slow', 'end']);
  });

  it('refuses "../" and absolute paths in path arguments, and writes nothing', async () => {
    const note = script({
      name: 'notes.write', input: z.object({ name: z.string() }), path_args: ['name'],
      command: ['node', '../scripts/write-note.cjs', '{{name}}'], cwd: 'work', expected_effect: [anyOutput],
    });
    for (const name of ['../escaped', 'a/../../escaped', '/tmp/escaped', '~/escaped']) {
      const { result, events } = await run(note, { name });
      expect(result.isError).toBe(true);
      expect((events[0] as EventOf<'capability.error'>).error.issues?.[0]).toEqual({ path: 'name', message: 'must be a path inside the app (no absolute path, no "..")' });
    }
    expect(existsSync(join(root, 'work', 'notes'))).toBe(false);
    expect(existsSync(join(root, 'escaped.txt'))).toBe(false);
    const ok = await run(note, { name: 'hello' });
    expect(ok.result).toMatchObject({ content: [{ type: 'text', text: 'wrote hello' }] });
    expect(readFileSync(join(root, 'work', 'notes', 'hello.txt'), 'utf8')).toBe('note');
  });

  it('refuses a NUL character', async () => {
    const { result } = await run(echo(), { text: 'a\0b' });
    expect(result.content[0]).toMatchObject({ text: expect.stringContaining('Text must not contain a NUL character.') });
  });

  it('does not pass the server environment on, only what the definition gives', async () => {
    process.env.CHATSURFACE_TEST_SECRET = 'sk-live-123';
    try {
      const env = script({ name: 'util.env', input: z.object({}), command: 'node scripts/env.cjs', env: { MINE: 'yes' }, expected_effect: [anyOutput] });
      const { result } = await run(env, {});
      expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual({ secret: null, mine: 'yes' });
    } finally {
      delete process.env.CHATSURFACE_TEST_SECRET;
    }
  });
});

describe('script capability: CSV ingest against SQLite', () => {
  let dbPath: string;
  const countRows = (entity: string) => {
    if (entity !== 'records') throw new Error(`unknown entity ${entity}`);
    const db = new Database(dbPath, { readonly: true });
    try {
      return (db.prepare('SELECT count(*) AS n FROM records').get() as { n: number }).n;
    } finally {
      db.close();
    }
  };
  beforeAll(() => {
    dbPath = join(root, 'data', 'app.db');
    const db = new Database(dbPath);
    db.exec('CREATE TABLE records (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT)');
    db.close();
    writeFileSync(join(root, 'data', 'good.csv'), 'name,email\nAda,ada@example.com\nGrace,grace@example.com\nLinus,linus@example.com\n');
    writeFileSync(join(root, 'data', 'bad.csv'), 'nme,email\nAda,ada@example.com\nGrace,grace@example.com\n');
  });
  const ingest = () =>
    script({
      name: 'records.import_csv',
      title: 'Import CSV',
      input: z.object({ file: z.string().min(1) }),
      path_args: ['file'],
      command: ['node', 'scripts/ingest.cjs', '--', '{{file}}'],
      env: { NODE_PATH: repoModules, DB_PATH: join(root, 'data', 'app.db') },
      expected_effect: [
        { type: 'row_count_change', entity: 'records', op: '>=', value: 1 },
        { type: 'stdout_matches', pattern: '^WARN', mode: 'must_not' },
        { type: 'exit_code', equals: 0 },
      ],
    });

  it('a good CSV adds its rows and raises no violation', async () => {
    const before = countRows('records');
    const { result, events } = await run(ingest(), { file: 'data/good.csv' }, { probes: { countRows } });
    expect(countRows('records')).toBe(before + 3);
    expect(result.isError).toBeFalsy();
    expect(result._meta?.[VIOLATIONS_META]).toBeUndefined();
    expect(only(events, 'capability.quality_violation')).toEqual([]);
    expect(events.at(-2)).toMatchObject({ type: 'capability.done', result: { structuredContent: { exit_code: 0 } } });
    expect(events.at(-1)).toMatchObject({ type: 'capability.checked' });
    expect((events.at(-1) as { checks: { text: string }[] }).checks.map((c) => c.text)).toContain('it finished without an error');
    const card = foldAll(initialThreadState, events).rows[0] as InvocationRow;
    expect(card.state).toBe('done');
    expect(card.violations).toBeUndefined();
  });

  it('a CSV whose rows insert nothing stays done but raises row_count_change (and the WARN lines)', async () => {
    const before = countRows('records');
    const { result, events } = await run(ingest(), { file: 'data/bad.csv' }, { probes: { countRows } });
    expect(countRows('records')).toBe(before);
    expect(result.isError).toBeFalsy();
    expect(events.map((e) => e.type).slice(-4)).toEqual(['capability.done', 'capability.checked', 'capability.quality_violation', 'capability.quality_violation']);
    const [rows, warn] = only(events, 'capability.quality_violation');
    expect(rows).toMatchObject({ postcondition: 'row_count_change', expected: 'records +1 or more', actual: 'records +0' });
    expect(rows!.message).toBe(`Import CSV should have added at least 1 row to records, but the count went from ${before} to ${before}.`);
    expect(warn).toMatchObject({ postcondition: 'stdout_matches', actual: 'WARN: row 2 has no name; skipped' });
    expect(result._meta?.[VIOLATIONS_META]).toHaveLength(2);
    const state = foldAll(initialThreadState, events);
    const card = state.rows[0] as InvocationRow;
    expect(card.state).toBe('done');
    expect(card.violations?.map((v) => v.postcondition)).toEqual(['row_count_change', 'stdout_matches']);
    expect(state.rows.filter((r) => r.kind === 'violation')).toHaveLength(2);
  });

  it('a missing CSV fails with the exit code kept', async () => {
    const noJudge = script({
      name: 'records.import_csv2',
      title: 'Import CSV',
      input: z.object({ file: z.string().min(1) }),
      command: ['node', 'scripts/ingest.cjs', '--', '{{file}}'],
      env: { NODE_PATH: repoModules, DB_PATH: join(root, 'data', 'app.db') },
      expected_effect: [{ type: 'row_count_change', entity: 'records', op: '>=', value: 1 }],
    });
    const { result, events } = await run(noJudge, { file: 'data/missing.csv' }, { probes: { countRows } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ exit_code: 1 });
    const error = events.at(-1) as EventOf<'capability.error'>;
    expect(error.error.code).toBe('tool_error');
    expect(error.error.message).toMatch(/^Import CSV exited with code 1\.\n[\s\S]*ENOENT/);
    expect(only(events, 'capability.quality_violation')).toEqual([]);
  });
});

describe('script capability: exit codes, output and time', () => {
  const exit = (effect: ScriptDefinition<z.ZodObject>['expected_effect']) =>
    script({ name: 'util.exit', input: z.object({ code: z.number().int() }), command: ['node', 'scripts/exit.cjs', '{{code}}'], expected_effect: effect });

  it('a non-zero exit is an error with its exit code and stderr when no exit_code postcondition judges it', async () => {
    const { result, events } = await run(exit([anyOutput]), { code: 3 });
    expect(result).toMatchObject({ isError: true, structuredContent: { exit_code: 3 } });
    expect(result.content[0]).toMatchObject({ text: 'util.exit exited with code 3.\nfailing on purpose' });
    expect(foldAll(initialThreadState, events).rows[0]).toMatchObject({ state: 'failed', error: { code: 'tool_error' } });
  });

  it('an exit_code postcondition judges the exit: done, with a violation when it differs', async () => {
    const wrong = await run(exit([{ type: 'exit_code', equals: 0 }]), { code: 3 });
    expect(wrong.result.isError).toBeFalsy();
    expect(only(wrong.events, 'capability.quality_violation')).toEqual([
      expect.objectContaining({ postcondition: 'exit_code', expected: 'exit code 0', actual: 'exit code 3', message: 'util.exit exited with code 3; 0 was expected.' }),
    ]);
    const right = await run(exit([{ type: 'exit_code', equals: 3 }]), { code: 3 });
    expect(only(right.events, 'capability.quality_violation')).toEqual([]);
  });

  it('streams stdout and stderr as capability.output before done', async () => {
    const chatty = script({ name: 'util.chatty', input: z.object({}), command: 'node scripts/chatty.cjs', expected_effect: [{ type: 'stdout_matches', pattern: '^three$' }] });
    const { events } = await run(chatty, {});
    const outputs = only(events, 'capability.output').map((e) => [e.stream, e.text]);
    expect(outputs).toEqual([['stdout', 'one\n'], ['stderr', 'warn: two\n'], ['stdout', 'three\n']]);
    expect(events.filter((e) => e.type !== 'capability.checked').at(-1)?.type).toBe('capability.done');
    expect(only(events, 'capability.quality_violation')).toEqual([]);
  });

  it('a duration bound that is exceeded emits quality.slow, not a violation', async () => {
    const sleep = script({ name: 'util.sleep', input: z.object({ ms: z.number() }), command: 'node scripts/sleep.cjs {{ms}}', expected_effect: [{ type: 'duration', max_ms: 5 }] });
    const { events } = await run(sleep, { ms: 50 });
    const slow = only(events, 'quality.slow');
    expect(slow).toHaveLength(1);
    expect(slow[0]!.max_ms).toBe(5);
    expect(slow[0]!.actual_ms).toBeGreaterThanOrEqual(50);
    expect(only(events, 'capability.quality_violation')).toEqual([]);
    expect(foldAll(initialThreadState, events).rows[0]).toMatchObject({ state: 'done', slow: { max_ms: 5 } });
  });

  it('file_created compares the files under the app root before and after', async () => {
    const report = script({
      name: 'reports.build', input: z.object({ name: z.string(), mode: z.string() }), path_args: ['name'],
      command: 'node scripts/report.cjs {{name}} {{mode}}', expected_effect: [{ type: 'file_created', glob: 'reports/{{name}}.csv' }],
    });
    const made = await run(report, { name: 'q1', mode: 'write' });
    expect(existsSync(join(root, 'reports', 'q1.csv'))).toBe(true);
    expect(only(made.events, 'capability.quality_violation')).toEqual([]);
    const skipped = await run(report, { name: 'q2', mode: 'skip' });
    expect(only(skipped.events, 'capability.quality_violation')).toEqual([
      expect.objectContaining({ postcondition: 'file_created', expected: '1 new file matching reports/q2.csv', actual: '0 new' }),
    ]);
    // Rewriting an existing report counts as creating it again.
    const again = await run(report, { name: 'q1', mode: 'write' });
    expect(only(again.events, 'capability.quality_violation')).toEqual([]);
  });

  it('a program that cannot start is a clear error, not recoverable', async () => {
    const missing = script({ name: 'util.missing', input: z.object({}), command: 'no-such-program-chatsurface', expected_effect: [anyOutput] });
    const { events } = await run(missing, {});
    expect(events.at(-1)).toMatchObject({
      type: 'capability.error', recoverable: false,
      error: { code: 'spawn_failed', message: 'Could not start "no-such-program-chatsurface": no such program (or the working directory is missing).' },
    });
  });
});

describe('script capability: timeout and cancel kill the process tree', () => {
  const tree = (timeout_ms: number) =>
    script({ name: 'util.tree', input: z.object({ pids: z.string() }), command: 'node scripts/tree.cjs {{pids}}', timeout_ms, kill_grace_ms: 500, expected_effect: [anyOutput] });

  it('a timeout kills the script and its grandchild and gives a recoverable timeout error', async () => {
    const pidsFile = join(root, 'pids-timeout.json');
    // Long enough for two node processes to start on a busy machine, so the pids are on disk when it fires.
    const { result, events } = await run(tree(1500), { pids: pidsFile });
    expect(result.isError).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'capability.error', recoverable: true, error: { code: 'timeout', message: 'util.tree did not finish within 1.5 s, so its processes were stopped.' } });
    const [pid, grandchild] = JSON.parse(readFileSync(pidsFile, 'utf8')) as [number, number];
    expect(await until(() => !alive(pid) && !alive(grandchild))).toBe(true);
  });

  it('cancelling kills the tree and the card turns cancelled', async () => {
    const pidsFile = join(root, 'pids-cancel.json');
    const controller = new AbortController();
    const running = run(tree(60_000), { pids: pidsFile }, { signal: controller.signal });
    expect(await until(() => existsSync(pidsFile))).toBe(true);
    const [pid, grandchild] = JSON.parse(readFileSync(pidsFile, 'utf8')) as [number, number];
    expect(alive(pid) && alive(grandchild)).toBe(true);
    controller.abort();
    const { events } = await running;
    expect(foldAll(initialThreadState, events).rows[0]).toMatchObject({ state: 'cancelled' });
    expect(await until(() => !alive(pid) && !alive(grandchild))).toBe(true);
  });
});

describe('script capability: refused at registration', () => {
  const base = { name: 'bad.script', input: z.object({ file: z.string() }), command: ['node', 'scripts/echo-args.cjs', '{{file}}'], expected_effect: [anyOutput] };
  const refused = (patch: Record<string, unknown>) => () => script({ ...base, ...patch } as never);

  it('without an expected_effect', () => {
    expect(refused({ expected_effect: undefined })).toThrow(/Script capability "bad.script" has no expected_effect/);
    expect(refused({ expected_effect: [] })).toThrow(/has no expected_effect/);
  });

  it('with an absolute cwd, a ".." cwd, a missing cwd or a cwd that links outside', () => {
    expect(refused({ cwd: '/tmp' })).toThrow('cwd must be relative to the app root (got the absolute path "/tmp").');
    expect(refused({ cwd: '../' })).toThrow('cwd must stay inside the app root; ".." is refused (got "../").');
    expect(refused({ cwd: 'work/../..' })).toThrow(/".." is refused/);
    expect(refused({ cwd: 'nowhere' })).toThrow(/cwd "nowhere" is not a folder under/);
    symlinkSync(tmpdir(), join(root, 'outside-link'));
    expect(refused({ cwd: 'outside-link' })).toThrow('cwd "outside-link" leads outside the app root (through a link).');
  });

  it('with a placeholder that is not an input field, fills the program, or is not a scalar', () => {
    expect(refused({ command: ['node', '{{nope}}'] })).toThrow('the command uses {{nope}}, which is not an input field (fields: file).');
    expect(refused({ command: ['{{file}}'] })).toThrow(/the program \(\{\{file\}\}\) must be fixed/);
    expect(refused({ input: z.object({ file: z.array(z.string()) }) })).toThrow('{{file}} must be a string, number or boolean field to fill one argument.');
  });

  it('with a quoted command string, a relative app root, a bad postcondition or an unknown path argument', () => {
    expect(refused({ command: 'node "my script.cjs"' })).toThrow(/cannot quote or escape; give an array/);
    expect(() => defineScriptCapability({ ...base, appRoot: 'relative', title: 'T', description: 'D.' })).toThrow('appRoot must be an absolute path (got "relative").');
    expect(refused({ expected_effect: [{ type: 'file_created', glob: '../x/*' }] })).toThrow(/glob must stay inside the app root/);
    expect(refused({ expected_effect: [{ type: 'stdout_matches', pattern: '(' }] })).toThrow(/pattern is not a valid regular expression/);
    expect(refused({ expected_effect: [{ type: 'row_count_change', entity: 'r', op: '+=', value: '{{rows}}' }] })).toThrow('uses {{rows}}, which is not an input field');
    expect(refused({ path_args: ['dir'] })).toThrow('path_args names "dir", which is not an input field.');
    expect(refused({ name: 'good.script' })).not.toThrow();
    expect(refused({ cwd: 'nowhere' })).toThrow(CapabilityDefinitionError);
  });
});
