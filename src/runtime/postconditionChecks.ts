import { resultText } from './results';
import type { Violation } from './fold';
import type { Baseline, Observation, Postcondition, PostconditionProbes, Verdict } from './postconditions';
import { bindPlaceholders } from './template';

/**
 * Checking expectation contracts after a run (see ./postconditions for the
 * contracts themselves): what was sampled before, against what the probes
 * see afterwards. Only a capability run needs this (`invoke`).
 */

/** Samples what the postconditions compare against, before the capability runs. */
export async function sampleBaseline(
  effect: readonly Postcondition[],
  args: Readonly<Record<string, unknown>>,
  probes: PostconditionProbes,
): Promise<Baseline> {
  const baseline: Baseline = { rows: new Map(), files: new Map() };
  for (const p of effect) {
    if (p.type === 'row_count_change' && p.op !== '==' && probes.countRows) {
      const entity = bindPlaceholders(p.entity, args);
      if (entity.ok && !baseline.rows.has(entity.text)) baseline.rows.set(entity.text, await attempt(() => probes.countRows!(entity.text)));
    }
    if (p.type === 'row_count_change' && typeof p.value === 'object' && probes.countRows) {
      const measured = bindPlaceholders(p.value.count, args);
      if (measured.ok && !baseline.rows.has(measured.text)) baseline.rows.set(measured.text, await attempt(() => probes.countRows!(measured.text)));
    }
    if (p.type === 'file_created' && probes.listFiles) {
      const glob = bindPlaceholders(p.glob, args);
      if (glob.ok && !baseline.files.has(glob.text)) baseline.files.set(glob.text, await attempt(() => probes.listFiles!(glob.text)));
    }
  }
  return baseline;
}

/** Checks every postcondition against the workspace after the run; never throws. */
export async function checkPostconditions(
  effect: readonly Postcondition[],
  baseline: Baseline,
  seen: Observation,
  probes: PostconditionProbes,
): Promise<Verdict> {
  const verdict: Verdict = { violations: [], passed: [] };
  for (const p of effect) {
    if (p.type === 'duration') {
      if (seen.durationMs > p.max_ms) verdict.slow = { max_ms: p.max_ms, actual_ms: Math.round(seen.durationMs) };
      continue;
    }
    const outcome = await check(p, baseline, seen, probes);
    if (typeof outcome === 'string') verdict.passed.push({ postcondition: p.type, text: outcome });
    else verdict.violations.push(outcome);
  }
  return verdict;
}

/** A violation, or what held, in plain words. */
async function check(p: Exclude<Postcondition, { type: 'duration' }>, baseline: Baseline, seen: Observation, probes: PostconditionProbes): Promise<Violation | string> {
  const { title, args } = seen;
  const notChecked = (expected: string, why: string): Violation => ({
    postcondition: p.type,
    expected,
    actual: 'not checked',
    message: `${title}: could not check that ${expected}: ${why}.`,
  });
  switch (p.type) {
    case 'row_count_change': {
      const entity = bindPlaceholders(p.entity, args);
      const value =
        typeof p.value === 'number' ? { ok: true as const, n: p.value } : typeof p.value === 'object' ? measuredValue(p.value.count, args, baseline) : numberOf(bindPlaceholders(p.value, args));
      const shown = typeof p.value === 'object' ? `count of ${p.value.count}` : p.value;
      const expected = !entity.ok || !value.ok ? `${p.entity} ${p.op} ${shown}` : p.op === '==' ? `${entity.text} = ${value.n}` : `${entity.text} +${value.n}${p.op === '>=' ? ' or more' : ''}`;
      if (!entity.ok) return notChecked(expected, `{{${entity.name}}} ${entity.reason}`);
      if (!value.ok) return notChecked(expected, value.why);
      if (!probes.countRows) return notChecked(expected, 'no row counter was given (pass probes.countRows)');
      const after = await attempt(() => probes.countRows!(entity.text));
      if (after instanceof Error) return notChecked(expected, `counting ${entity.text} failed: ${after.message}`);
      if (p.op === '==') {
        if (after === value.n) return `${count(after, words(entity.text))} in all`;
        return { postcondition: p.type, expected, actual: `${entity.text} = ${after}`, message: `${title} should have left ${entity.text} with ${value.n} ${rows(value.n)}, but it has ${after}.` };
      }
      const before = baseline.rows.get(entity.text);
      if (before === undefined) return notChecked(expected, `${entity.text} was not counted before the run`);
      if (before instanceof Error) return notChecked(expected, `counting ${entity.text} before the run failed: ${before.message}`);
      const delta = after - before;
      if (p.op === '+=' ? delta === value.n : delta >= value.n) return delta === 0 ? `no ${words(entity.text, 2)} changed, as expected` : `${delta} more ${words(entity.text, delta)}`;
      const should = p.op === '+=' ? `added ${value.n}` : `added at least ${value.n}`;
      return {
        postcondition: p.type,
        expected,
        actual: `${entity.text} ${delta >= 0 ? '+' : ''}${delta}`,
        message: `${title} should have ${should} ${rows(value.n)} to ${entity.text}, but the count went from ${before} to ${after}.`,
      };
    }
    case 'file_created': {
      const min = p.min_count ?? 1;
      const glob = bindPlaceholders(p.glob, args);
      const expected = `${min} new ${min === 1 ? 'file' : 'files'} matching ${glob.ok ? glob.text : p.glob}`;
      if (!glob.ok) return notChecked(expected, `{{${glob.name}}} ${glob.reason}`);
      if (!probes.listFiles) return notChecked(expected, 'no file lister was given (pass probes.listFiles)');
      const before = baseline.files.get(glob.text);
      if (before instanceof Error || before === undefined) return notChecked(expected, `listing files before the run failed${before ? `: ${before.message}` : ''}`);
      const after = await attempt(() => probes.listFiles!(glob.text));
      if (after instanceof Error) return notChecked(expected, `listing files failed: ${after.message}`);
      const created = Object.entries(after).filter(([path, mtime]) => before[path] === undefined || mtime > before[path]!).length;
      if (created >= min) return `${count(created, 'new file', 'new files')} in ${glob.text.replace(/\/?\*.*$/, '') || 'the app folder'}`;
      return { postcondition: p.type, expected, actual: `${created} new`, message: `${title} should have created at least ${min} ${min === 1 ? 'file' : 'files'} matching ${glob.text}, but it created ${created}.` };
    }
    case 'exit_code': {
      const code = seen.result.structuredContent?.exit_code;
      const expected = `exit code ${p.equals}`;
      if (typeof code !== 'number') return notChecked(expected, 'it reports no exit code');
      if (code === p.equals) return p.equals === 0 ? 'it finished without an error' : `it ended as expected`;
      return { postcondition: p.type, expected, actual: `exit code ${code}`, message: `${title} exited with code ${code}; ${p.equals} was expected.` };
    }
    case 'stdout_matches': {
      const mode = p.mode ?? 'must';
      const text = seen.stdout ?? resultText(seen.result);
      const match = new RegExp(p.pattern, 'm').exec(text);
      if (mode === 'must') {
        if (match) return 'its output looked as expected';
        return { postcondition: p.type, expected: `output matching /${p.pattern}/`, actual: text.trim() ? 'no match' : 'no output', message: `${title}'s output never matched /${p.pattern}/.` };
      }
      if (!match) return 'its output showed no problem';
      const line = lineAround(text, match.index);
      return { postcondition: p.type, expected: `no output matching /${p.pattern}/`, actual: line, message: `${title}'s output matched /${p.pattern}/: ${line}` };
    }
    default:
      return p satisfies never;
  }
}

/** A `{ count }` value: the row counter's reading for that entity, taken before the run. */
function measuredValue(template: string, args: Readonly<Record<string, unknown>>, baseline: Baseline): { ok: true; n: number } | { ok: false; why: string } {
  const bound = bindPlaceholders(template, args);
  if (!bound.ok) return { ok: false, why: `{{${bound.name}}} ${bound.reason}` };
  const n = baseline.rows.get(bound.text);
  if (n === undefined) return { ok: false, why: `${bound.text} was not counted before the run` };
  if (n instanceof Error) return { ok: false, why: `counting ${bound.text} failed: ${n.message}` };
  return { ok: true, n };
}

function numberOf(bound: ReturnType<typeof bindPlaceholders>): { ok: true; n: number } | { ok: false; why: string } {
  if (!bound.ok) return { ok: false, why: `{{${bound.name}}} ${bound.reason}` };
  const n = Number(bound.text);
  return Number.isInteger(n) ? { ok: true, n } : { ok: false, why: `"${bound.text}" is not a whole number` };
}

const rows = (n: number) => (n === 1 ? 'row' : 'rows');

function lineAround(text: string, index: number): string {
  const start = text.lastIndexOf('\n', index - 1) + 1;
  const end = text.indexOf('\n', index);
  const line = text.slice(start, end === -1 ? undefined : end).trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

async function attempt<T>(probe: () => T | Promise<T>): Promise<T | Error> {
  try {
    return await probe();
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** An entity name in words: `enriched_records` → "enriched records" (singular for one). */
function words(entity: string, n = 2): string {
  const plain = entity.replace(/[_.:-]+/g, ' ').trim();
  return n === 1 ? plain.replace(/s$/, '') : plain;
}

function count(n: number, other: string, plural?: string): string {
  const one = plural ? other : other.replace(/s$/, '');
  const many = plural ?? other;
  return `${n} ${new Intl.PluralRules('en').select(n) === 'one' ? one : many}`;
}
