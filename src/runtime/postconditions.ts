import * as z from 'zod/mini';
import type { CapabilityResult } from './envelope';
import type { Violation } from './fold/rows';
import { placeholderNames } from './template';

/**
 * Expectation contracts: what a capability must have done to the workspace,
 * checked by the runtime after `capability.done`, against the workspace
 * itself (through probes), never on the handler's word.
 */

const placeholder = z.string().check(z.regex(/^\{\{\s*[A-Za-z_][A-Za-z0-9_]*\s*\}\}$/, 'must be a number or one {{argument}}'));

/** One postcondition. `entity`, `glob` and a string `value` may use `{{argument}}` placeholders. */
export const PostconditionSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('row_count_change'),
    /** What the counting probe counts, e.g. a table name. */
    entity: z.string().check(z.minLength(1)),
    /** `+=`: grew by exactly `value`; `>=`: grew by at least `value`; `==`: holds exactly `value` afterwards. */
    op: z.enum(['+=', '==', '>=']),
    /**
     * A number, one `{{argument}}`, or `{ count: 'entity' }`: what the row
     * counter reports for that (bound) entity before the run, e.g.
     * `{ count: 'csv_rows:{{file}}' }` for "as many records as the file has rows".
     */
    value: z.union([z.int(), placeholder, z.strictObject({ count: z.string().check(z.minLength(1)) })]),
  }),
  z.strictObject({
    type: z.literal('file_created'),
    /** Relative to the app root, e.g. `reports/*.csv`. */
    glob: z.string().check(z.minLength(1)),
    /** @default 1 */
    min_count: z.optional(z.int().check(z.positive())),
  }),
  z.strictObject({ type: z.literal('exit_code'), equals: z.int() }),
  z.strictObject({
    type: z.literal('stdout_matches'),
    /** A JavaScript regular expression, matched line-wise (`m` flag). */
    pattern: z.string().check(z.minLength(1)),
    /** @default 'must' */
    mode: z.optional(z.enum(['must', 'must_not'])),
  }),
  /** Soft: exceeding it emits `quality.slow`, never a violation. */
  z.strictObject({ type: z.literal('duration'), max_ms: z.number().check(z.positive()) }),
]);

/** One postcondition of a capability's `expected_effect`. */
export type Postcondition = z.infer<typeof PostconditionSchema>;

/** Relative path → modification time (ms) of the files a glob matches. */
export type FileListing = Readonly<Record<string, number>>;

/** How the runtime looks at the workspace. The host gives the row counter; scripts bring a file lister. */
export interface PostconditionProbes {
  /** Counts the rows of an entity (a table, a collection); sampled before and after the run. */
  countRows?(entity: string): number | Promise<number>;
  /** Lists the files a glob matches; sampled before and after the run. */
  listFiles?(glob: string): FileListing | Promise<FileListing>;
}

/** What was sampled before the run, by bound entity or glob; an Error when the probe failed. */
export interface Baseline {
  rows: Map<string, number | Error>;
  files: Map<string, FileListing | Error>;
}

/** What the runtime saw of the run. */
export interface Observation {
  title: string;
  args: Readonly<Record<string, unknown>>;
  result: CapabilityResult;
  /** Text streamed on stdout; null when the capability streams none (then the result's text is used). */
  stdout: string | null;
  durationMs: number;
}

export interface Verdict {
  violations: Violation[];
  /** The postconditions that held, each in plain words for the card ("2 more enriched records"). */
  passed: { postcondition: string; text: string }[];
  /** Set when a `duration` bound was exceeded. */
  slow?: { max_ms: number; actual_ms: number };
}

/** Problems that make an `expected_effect` unusable, phrased for a registration error. */
export function expectedEffectProblems(effect: unknown, inputKeys: readonly string[] | null): string[] {
  if (!Array.isArray(effect)) return ['expected_effect must be a list of postconditions'];
  const problems: string[] = [];
  effect.forEach((raw, i) => {
    const parsed = PostconditionSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const path = issue.path.length ? `.${issue.path.join('.')}` : '';
      problems.push(`expected_effect[${i}]${path}: ${issue.message}`);
      return;
    }
    const p = parsed.data;
    const templates =
      p.type === 'row_count_change' ? [p.entity, typeof p.value === 'object' ? p.value.count : String(p.value)] : p.type === 'file_created' ? [p.glob] : [];
    for (const name of templates.flatMap(placeholderNames)) {
      if (inputKeys && !inputKeys.includes(name)) problems.push(`expected_effect[${i}] uses {{${name}}}, which is not an input field`);
    }
    if (p.type === 'file_created' && (/^([/\\]|[A-Za-z]:)/.test(p.glob) || /(^|[/\\])\.\.([/\\]|$)/.test(p.glob))) {
      problems.push(`expected_effect[${i}].glob must stay inside the app root (no absolute path, no ".."): ${p.glob}`);
    }
    if (p.type === 'stdout_matches') {
      try {
        new RegExp(p.pattern, 'm');
      } catch (error) {
        problems.push(`expected_effect[${i}].pattern is not a valid regular expression: ${(error as Error).message}`);
      }
    }
  });
  return problems;
}

// Sampling and checking (`sampleBaseline`, `checkPostconditions`) live in ./postconditionChecks: only a
// capability run needs them, so a page that defines capabilities but has run none does not carry them.
