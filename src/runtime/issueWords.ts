/**
 * Argument problems in plain words. A field is named by its schema title
 * (else its name as words), and zod's wording becomes one sentence.
 */

/**
 * One sentence for a bad field, named by its title: zod's "Too big: expected
 * number to be <=50" becomes "Records to enrich must be 50 or less."
 */
export function issueSentence(label: string, message: string): string {
  const m = message.trim();
  const num = (re: RegExp) => re.exec(m)?.[1];
  const max = num(/<=\s*(-?[\d.]+)/) ?? num(/at most (-?[\d.]+)/i);
  const under = num(/<\s*(-?[\d.]+)/);
  const min = num(/>=\s*(-?[\d.]+)/) ?? num(/at least (-?[\d.]+)/i);
  const over = num(/>\s*(-?[\d.]+)/);
  const expected = /expected (\w+), received (\w+)/i.exec(m);
  if (/too big/i.test(m) && max) return `${label} must be ${max} or less.`;
  if (/too big/i.test(m) && under) return `${label} must be less than ${under}.`;
  if (/too small/i.test(m) && min) return `${label} must be ${min} or more.`;
  if (/too small/i.test(m) && over) return `${label} must be more than ${over}.`;
  if (expected && expected[2] === 'undefined') return `${label} is needed.`;
  if (expected) return `${label} must be ${article(words(expected[1]!))}.`;
  if (/expected int/i.test(m)) return `${label} must be a whole number.`;
  const clean = m.replace(/^Invalid (?:input|string|option)[:;]?\s*/i, '').replace(/\.$/, '');
  return clean ? `${label} ${/^must|^should|^is /.test(clean) ? clean : `is not valid: ${clean}`}.` : `${label} is not valid.`;
}

function words(type: string): string {
  return type === 'int' ? 'whole number' : type === 'boolean' ? 'yes or no' : type;
}

function article(noun: string): string {
  return noun === 'yes or no' ? noun : `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;
}

/** A field's label from a JSON Schema property: its title, else its name as words with a capital. */
export function fieldTitle(key: string, schema: Record<string, unknown> | undefined): string {
  const properties = (schema?.properties ?? {}) as Record<string, { title?: string }>;
  const title = properties[key]?.title?.trim();
  if (title) return title;
  const words = key.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_.-]+/g, ' ').trim().toLowerCase() || key;
  return words.charAt(0).toUpperCase() + words.slice(1);
}
