import type { ElicitationValue } from './events';

/**
 * The fields of an MCP form elicitation (`requestedSchema`: a flat object of strings, numbers,
 * booleans, single- and multi-select enums, MCP's restricted subset of JSON Schema), read once
 * so the page draws them and the page and the host check an answer the same way, in plain words.
 * Pure: no DOM, no zod, so the runtime entry and the row share it.
 */

/** One choice of a select: the value sent and the words shown. */
export interface FieldOption {
  value: string;
  label: string;
}

interface FieldBase {
  /** The property's key: what the answer names it. */
  key: string;
  /** Its title, else its key. */
  label: string;
  description?: string;
  required: boolean;
}

export type ElicitationField =
  | (FieldBase & { type: 'text'; format?: 'email' | 'uri' | 'date' | 'date-time'; minLength?: number; maxLength?: number; default?: string })
  | (FieldBase & { type: 'number'; integer: boolean; minimum?: number; maximum?: number; default?: number })
  | (FieldBase & { type: 'boolean'; default?: boolean })
  | (FieldBase & { type: 'choice'; options: FieldOption[]; default?: string })
  | (FieldBase & { type: 'multi'; options: FieldOption[]; minItems?: number; maxItems?: number; default?: string[] });

/** A problem with one field's value, in words the user can act on. */
export interface FieldIssue {
  key: string;
  message: string;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const FORMATS = new Set(['email', 'uri', 'date', 'date-time']);

/** The options of an enum property: `oneOf`/`anyOf` of `{ const, title }`, or `enum` (with the legacy `enumNames`). */
function optionsOf(schema: Json): FieldOption[] | null {
  const titled = (Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : null) as unknown[] | null;
  if (titled) {
    const options = titled.filter(isObject).filter((o) => typeof o.const === 'string');
    return options.map((o) => ({ value: o.const as string, label: str(o.title) ?? (o.const as string) }));
  }
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return schema.enum.filter((v): v is string => typeof v === 'string').map((value, i) => ({ value, label: str(names[i]) ?? value }));
  }
  return null;
}

/** The fields of a requested schema, in its order; a property of a kind MCP forms do not have is left out (and named in `unsupported`). */
export function fieldsOf(schema: unknown): { fields: ElicitationField[]; unsupported: string[] } {
  const fields: ElicitationField[] = [];
  const unsupported: string[] = [];
  const properties = isObject(schema) && isObject(schema.properties) ? schema.properties : {};
  const required = new Set(isObject(schema) && Array.isArray(schema.required) ? schema.required.filter((k): k is string => typeof k === 'string') : []);
  for (const [key, raw] of Object.entries(properties)) {
    if (!isObject(raw)) {
      unsupported.push(key);
      continue;
    }
    const base: FieldBase = { key, label: str(raw.title) ?? key, required: required.has(key), ...(str(raw.description) ? { description: raw.description as string } : {}) };
    const options = raw.type === 'array' && isObject(raw.items) ? optionsOf(raw.items) : optionsOf(raw);
    if (raw.type === 'array' && options) {
      const def = Array.isArray(raw.default) ? raw.default.filter((v): v is string => typeof v === 'string') : undefined;
      fields.push({ ...base, type: 'multi', options, ...(num(raw.minItems) !== undefined ? { minItems: num(raw.minItems)! } : {}), ...(num(raw.maxItems) !== undefined ? { maxItems: num(raw.maxItems)! } : {}), ...(def ? { default: def } : {}) });
    } else if (raw.type === 'string' && options) {
      fields.push({ ...base, type: 'choice', options, ...(str(raw.default) !== undefined ? { default: raw.default as string } : {}) });
    } else if (raw.type === 'string') {
      const format = str(raw.format);
      fields.push({
        ...base,
        type: 'text',
        ...(format && FORMATS.has(format) ? { format: format as 'email' } : {}),
        ...(num(raw.minLength) !== undefined ? { minLength: num(raw.minLength)! } : {}),
        ...(num(raw.maxLength) !== undefined ? { maxLength: num(raw.maxLength)! } : {}),
        ...(str(raw.default) !== undefined ? { default: raw.default as string } : {}),
      });
    } else if (raw.type === 'number' || raw.type === 'integer') {
      fields.push({
        ...base,
        type: 'number',
        integer: raw.type === 'integer',
        ...(num(raw.minimum) !== undefined ? { minimum: num(raw.minimum)! } : {}),
        ...(num(raw.maximum) !== undefined ? { maximum: num(raw.maximum)! } : {}),
        ...(num(raw.default) !== undefined ? { default: num(raw.default)! } : {}),
      });
    } else if (raw.type === 'boolean') {
      fields.push({ ...base, type: 'boolean', ...(typeof raw.default === 'boolean' ? { default: raw.default } : {}) });
    } else {
      unsupported.push(key);
    }
  }
  return { fields, unsupported };
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function textProblem(field: Extract<ElicitationField, { type: 'text' }>, value: string): string | null {
  if (field.minLength !== undefined && value.length < field.minLength) return `${field.label} needs at least ${field.minLength} characters.`;
  if (field.maxLength !== undefined && value.length > field.maxLength) return `${field.label} takes at most ${field.maxLength} characters.`;
  if (field.format === 'email' && !EMAIL.test(value)) return `${field.label} must be an email address, such as name@example.com.`;
  if (field.format === 'date' && (!DATE.test(value) || Number.isNaN(Date.parse(value)))) return `${field.label} must be a date, such as 2026-03-14.`;
  if (field.format === 'date-time' && Number.isNaN(Date.parse(value))) return `${field.label} must be a date and time, such as 2026-03-14T09:30:00Z.`;
  if (field.format === 'uri') {
    try {
      new URL(value);
    } catch {
      return `${field.label} must be a web address, such as https://example.com.`;
    }
  }
  return null;
}

function numberProblem(field: Extract<ElicitationField, { type: 'number' }>, value: number): string | null {
  if (field.integer && !Number.isInteger(value)) return `${field.label} must be a whole number.`;
  if (field.minimum !== undefined && value < field.minimum) return `${field.label} must be at least ${field.minimum}.`;
  if (field.maximum !== undefined && value > field.maximum) return `${field.label} must be at most ${field.maximum}.`;
  return null;
}

function valueProblem(field: ElicitationField, value: unknown): string | null {
  const labels = field.type === 'choice' || field.type === 'multi' ? field.options.map((o) => o.label).join(', ') : '';
  switch (field.type) {
    case 'text':
      return typeof value === 'string' ? textProblem(field, value) : `${field.label} must be text.`;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? numberProblem(field, value) : `${field.label} must be a number.`;
    case 'boolean':
      return typeof value === 'boolean' ? null : `${field.label} must be yes or no.`;
    case 'choice':
      return typeof value === 'string' && field.options.some((o) => o.value === value) ? null : `${field.label} must be one of: ${labels}.`;
    case 'multi': {
      if (!Array.isArray(value) || value.some((v) => !field.options.some((o) => o.value === v))) return `${field.label} takes only: ${labels}.`;
      if (field.minItems !== undefined && value.length < field.minItems) return `Choose at least ${field.minItems} for ${field.label}.`;
      if (field.maxItems !== undefined && value.length > field.maxItems) return `Choose at most ${field.maxItems} for ${field.label}.`;
      return null;
    }
    default:
      return field satisfies never;
  }
}

const isEmpty = (value: unknown) => value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

/**
 * Checks an answer against the fields: every key one the server asked for, every required field
 * there, each value of its field's type and within its bounds. The issues, in the fields' order
 * (none: the content may go to the server).
 * @example
 * checkContent(fields, { name: 'Ada', age: 200 }); // [{ key: 'age', message: 'Age must be at most 130.' }]
 */
export function checkContent(fields: readonly ElicitationField[], content: Readonly<Record<string, unknown>>): FieldIssue[] {
  const issues: FieldIssue[] = [];
  for (const key of Object.keys(content)) {
    if (!fields.some((f) => f.key === key)) issues.push({ key, message: `The form has no field "${key}".` });
  }
  for (const field of fields) {
    const value = content[field.key];
    if (isEmpty(value)) {
      if (field.required) issues.push({ key: field.key, message: `${field.label} is required.` });
      continue;
    }
    const problem = valueProblem(field, value);
    if (problem) issues.push({ key: field.key, message: problem });
  }
  return issues;
}

/** What a form holds for one field before it is read: the text of a box, a box ticked or not, the values chosen. */
export type RawValue = string | boolean | readonly string[];

/**
 * Reads what a form holds into an answer: text as typed (empty left out), numbers parsed,
 * booleans as ticked, choices as chosen; then `checkContent`. A number that is not one is an
 * issue in words ("Age must be a number."), not a NaN sent on.
 */
export function readForm(fields: readonly ElicitationField[], raw: Readonly<Record<string, RawValue | undefined>>): { content: Record<string, ElicitationValue>; issues: FieldIssue[] } {
  const content: Record<string, ElicitationValue> = {};
  const unreadable: FieldIssue[] = [];
  for (const field of fields) {
    const value = raw[field.key];
    if (value === undefined) continue;
    if (field.type === 'boolean') content[field.key] = value === true;
    else if (field.type === 'multi') {
      if (Array.isArray(value) && value.length) content[field.key] = [...value];
    } else if (typeof value === 'string' && value.trim() !== '') {
      if (field.type !== 'number') content[field.key] = value;
      else {
        const n = Number(value.trim());
        if (Number.isFinite(n)) content[field.key] = n;
        else unreadable.push({ key: field.key, message: `${field.label} must be a number.` });
      }
    }
  }
  const issues = [...unreadable, ...checkContent(fields, content).filter((i) => !unreadable.some((u) => u.key === i.key))];
  const order = new Map(fields.map((f, i) => [f.key, i]));
  issues.sort((a, b) => (order.get(a.key) ?? 0) - (order.get(b.key) ?? 0));
  return { content, issues };
}

/** What each field holds when the form opens: the server's defaults (MCP SEP-1034), else empty. */
export function initialValues(fields: readonly ElicitationField[]): Record<string, RawValue> {
  const values: Record<string, RawValue> = {};
  for (const field of fields) {
    if (field.type === 'boolean') values[field.key] = field.default ?? false;
    else if (field.type === 'multi') values[field.key] = field.default ?? [];
    else values[field.key] = field.default === undefined ? '' : String(field.default);
  }
  return values;
}
