/**
 * `{{arg}}` placeholders, shared by script commands and postconditions. A
 * placeholder names one argument of the capability's input; binding never
 * re-parses the result, so whatever a value contains stays one piece of text.
 */

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
const WHOLE = /^\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}$/;

/** The argument names a template mentions, in order of first use. */
export function placeholderNames(template: string): string[] {
  const names: string[] = [];
  for (const match of template.matchAll(PLACEHOLDER)) {
    if (!names.includes(match[1]!)) names.push(match[1]!);
  }
  return names;
}

/** The argument name when the whole template is one placeholder (`{{file}}`), else null. */
export function wholePlaceholder(template: string): string | null {
  return WHOLE.exec(template)?.[1] ?? null;
}

/** What binding a template gave: its text, or the argument that could not be used. */
export type Bound = { ok: true; text: string } | { ok: false; name: string; reason: string };

/**
 * Replaces each `{{name}}` by the argument's value: strings as they are,
 * numbers and booleans in their plain form. A missing value or an object is
 * reported, never guessed.
 */
export function bindPlaceholders(template: string, args: Readonly<Record<string, unknown>>): Bound {
  let failure: { name: string; reason: string } | null = null;
  const text = template.replace(PLACEHOLDER, (_match, name: string) => {
    const value = args[name];
    const formatted = formatValue(value);
    if (formatted === null) {
      failure ??= { name, reason: value === undefined || value === null ? 'has no value' : 'is not a string, number or boolean' };
      return '';
    }
    return formatted;
  });
  return failure ? { ok: false, ...(failure as { name: string; reason: string }) } : { ok: true, text };
}

function formatValue(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return String(value);
  return null;
}
