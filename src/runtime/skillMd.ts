import { parseDocument } from 'yaml';

/**
 * SKILL.md parsing with the Agent Skills specification's rules
 * (agentskills.io/specification): YAML frontmatter between `---` lines, then
 * a Markdown body. Every problem names the file, the field and the rule.
 */

/** A SKILL.md's frontmatter, as the specification allows it. */
export interface SkillFrontmatter {
  /** 1–64 lowercase letters, digits and single hyphens; matches the skill's folder. */
  name: string;
  /** What the skill does and when to use it, 1–1024 characters. */
  description: string;
  license?: string;
  /** Environment needs, 1–500 characters. */
  compatibility?: string;
  /** Free string → string map (author, version, …). */
  metadata?: Record<string, string>;
  /** Space-separated pre-approved tools (experimental in the specification). */
  'allowed-tools'?: string;
}

/** A SKILL.md that follows the rules. */
export interface ParsedSkill {
  name: string;
  description: string;
  frontmatter: SkillFrontmatter;
  /** Everything after the closing `---` line, exactly as written. */
  body: string;
  /** The path it was read from (or the label the host gave). */
  file: string;
}

/** One broken rule. */
export interface SkillProblem {
  file: string;
  /** A frontmatter field, or `frontmatter` for the block itself. */
  field: string;
  /** The rule, in words. */
  rule: string;
  /** `file: field: rule`, ready to show. */
  message: string;
}

/** Thrown for a SKILL.md that breaks the rules; `problems` lists each one. */
export class SkillFormatError extends Error {
  override name = 'SkillFormatError';
  constructor(
    readonly file: string,
    readonly problems: readonly SkillProblem[],
  ) {
    super(problems.length === 1 ? problems[0]!.message : `${file} has ${problems.length} problems:\n${problems.map((p) => `- ${p.message}`).join('\n')}`);
  }
}

const ALLOWED = ['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools'];
const NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/**
 * Parses a SKILL.md. `file` is used in messages and, when it ends in
 * `<folder>/SKILL.md`, the name must equal `<folder>`.
 * @example
 * const parsed = parseSkillMd(await readFile('skills/pdf-tools/SKILL.md', 'utf8'), 'skills/pdf-tools/SKILL.md');
 * if (!parsed.ok) console.error(parsed.problems.map((p) => p.message).join('\n'));
 */
export function parseSkillMd(
  text: string,
  file = 'SKILL.md',
): { ok: true; skill: ParsedSkill } | { ok: false; problems: SkillProblem[] } {
  const problems: SkillProblem[] = [];
  const problem = (field: string, rule: string) => {
    problems.push({ file, field, rule, message: `${file}: ${field}: ${rule}` });
    return { ok: false as const, problems };
  };

  const src = text.replace(/^\uFEFF/, '');
  const open = /^---[ \t]*(\r?\n|$)/.exec(src);
  if (!open) return problem('frontmatter', 'the file must start with a "---" line, then YAML frontmatter, then a closing "---" line');
  const rest = src.slice(open[0].length);
  const close = /^---[ \t]*\r?$/m.exec(rest);
  if (!close) return problem('frontmatter', 'the frontmatter is not closed: add a "---" line after it');

  const doc = parseDocument(rest.slice(0, close.index));
  if (doc.errors.length) return problem('frontmatter', `must be valid YAML (${doc.errors[0]!.message.split('\n')[0]})`);
  const data: unknown = doc.toJS();
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return problem('frontmatter', 'must be a YAML mapping of fields (name: …, description: …)');
  }
  const fm = data as Record<string, unknown>;

  const unexpected = Object.keys(fm).filter((key) => !ALLOWED.includes(key));
  for (const key of unexpected) problem(key, `is not a SKILL.md field (allowed: ${ALLOWED.join(', ')})`);

  const { name, description } = fm;
  if (name === undefined) problem('name', 'is required');
  else if (typeof name !== 'string') problem('name', 'must be a string');
  else if (name.length < 1 || name.length > 64) problem('name', `must be 1–64 characters (it has ${name.length})`);
  else if (!NAME.test(name)) {
    problem('name', `must use lowercase letters, digits and single hyphens, not start or end with a hyphen (got "${name}")`);
  } else {
    const folder = /(?:^|[/\\])([^/\\]+)[/\\]SKILL\.md$/.exec(file)?.[1];
    if (folder !== undefined && folder !== name) problem('name', `must match the skill's folder name "${folder}" (got "${name}")`);
  }

  if (description === undefined) problem('description', 'is required');
  else if (typeof description !== 'string') problem('description', 'must be a string');
  else if (!description.trim()) problem('description', 'must not be empty: say what the skill does and when to use it');
  else if (description.length > 1024) problem('description', `must be at most 1024 characters (it has ${description.length})`);

  if (fm.license !== undefined && (typeof fm.license !== 'string' || !fm.license.trim())) problem('license', 'must be a non-empty string');
  if (fm.compatibility !== undefined) {
    const c = fm.compatibility;
    if (typeof c !== 'string') problem('compatibility', 'must be a string');
    else if (c.length < 1 || c.length > 500) problem('compatibility', `must be 1–500 characters (it has ${c.length})`);
  }
  if (fm.metadata !== undefined) {
    const m = fm.metadata;
    if (m === null || typeof m !== 'object' || Array.isArray(m)) problem('metadata', 'must be a mapping of string keys to string values');
    else {
      for (const [key, value] of Object.entries(m)) {
        if (typeof value !== 'string') problem(`metadata.${key}`, `must be a string (quote it: ${key}: "${sourceOf(doc.getIn(['metadata', key], true), value)}")`);
      }
    }
  }
  const tools = fm['allowed-tools'];
  if (tools !== undefined && typeof tools !== 'string') problem('allowed-tools', 'must be one space-separated string, e.g. "Bash(git:*) Read"');

  if (problems.length) return { ok: false, problems };
  const frontmatter = fm as unknown as SkillFrontmatter;
  const body = rest.slice(close.index + close[0].length).replace(/^\r?\n/, '');
  return { ok: true, skill: { name: frontmatter.name, description: frontmatter.description, frontmatter, body, file } };
}

/** The value as written in the file (`1.0`, not `1`), for messages. */
function sourceOf(node: unknown, value: unknown): string {
  const source = (node as { source?: unknown } | undefined)?.source;
  return typeof source === 'string' ? source : String(value);
}
