import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, resolve, sep } from 'node:path';
import { z } from 'zod';
import {
  CapabilityDefinitionError,
  CapabilityFailure,
  checkDescriptor,
  type Actor,
  type CapabilityDescriptor,
  type ScriptSource,
  type ToolAnnotations,
} from '../capability';
import type { CapabilityResult } from '../envelope';
import type { Postcondition } from '../postconditions';
import { toJsonSchema } from '../registry';
import { bindPlaceholders, placeholderNames, wholePlaceholder } from '../template';
import { createFileProbe } from './filePostconditions';
import { runScript, type ScriptExit } from './scriptProcess';

export interface ScriptDefinition<S extends z.ZodObject> {
  /** Absolute path of the app root: `cwd` and file globs are relative to it. */
  appRoot: string;
  name: string;
  title: string;
  description: string;
  /** How users ask for it, in their words (see `CapabilityDescriptor.examples`). */
  examples?: readonly string[];
  /** @default 'mutate' */
  kind?: 'read' | 'mutate';
  /** An object schema; its fields fill the command's `{{placeholders}}`. */
  input: S;
  annotations?: ToolAnnotations;
  actor?: Actor;
  requires_user_confirmation?: boolean;
  /**
   * The argv template: an array, or a string split at spaces (no quoting).
   * Each `{{field}}` is bound inside its own argument, so a value never
   * becomes a second argument, an option of the shell or a command. An
   * optional field with no value never shifts the arguments after it: an
   * option with it (`--limit {{n}}`, `--limit={{n}}`) is left out whole, and
   * a positional one is passed as an empty argument in its place.
   * @example ['node', 'scripts/ingest.mjs', '--', '{{file}}']
   */
  command: string | readonly string[];
  /** Working directory relative to the app root; absolute paths and `..` are refused. @default '.' */
  cwd?: string;
  /** The process tree is killed after this long. @default 60000 */
  timeout_ms?: number;
  /** What the script must change, checked after it finishes (at least one postcondition). */
  expected_effect: readonly Postcondition[];
  /** Fields that name files: refused when absolute or containing a `..` segment. */
  path_args?: readonly (keyof z.infer<S> & string)[];
  /** Environment of the process. The server's own environment (and its keys) is never passed on; only PATH, HOME, LANG, TZ and the temp folder are. */
  env?: Readonly<Record<string, string>>;
  /** Between SIGTERM and SIGKILL when it is stopped. @default 2000 */
  kill_grace_ms?: number;
}

const PASSED_ENV = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR', 'TEMP', 'TMP', 'SystemRoot'];

/**
 * A registered command as a capability (server side only). It runs as an
 * argv array with no shell, in `cwd` under the app root; stdout and stderr
 * stream as `capability.output`; a timeout or a cancel kills the process
 * tree; the exit code is kept in `structuredContent.exit_code`. A non-zero
 * exit is an error unless `expected_effect` has an `exit_code`
 * postcondition, which then judges it. Definition errors throw
 * `CapabilityDefinitionError`.
 * @example
 * const ingest = defineScriptCapability({
 *   appRoot, name: 'records.import_csv', title: 'Import CSV', description: 'Imports a CSV file into records.',
 *   input: z.object({ file: z.string() }), path_args: ['file'],
 *   command: ['node', 'scripts/ingest.mjs', '--', '{{file}}'],
 *   expected_effect: [{ type: 'row_count_change', entity: 'records', op: '>=', value: 1 }],
 * });
 */
export function defineScriptCapability<S extends z.ZodObject>(definition: ScriptDefinition<S>): CapabilityDescriptor<z.infer<S>> & { source: ScriptSource } {
  const { name, appRoot } = definition;
  const refuse = (problem: string): never => {
    throw new CapabilityDefinitionError(`Script capability "${name}": ${problem}`);
  };
  if (!(definition.input instanceof z.ZodObject)) refuse('input must be a z.object({...}) whose fields fill the command.');
  if (!isAbsolute(appRoot)) refuse(`appRoot must be an absolute path (got "${appRoot}").`);
  const root = realDir(appRoot) ?? refuse(`appRoot "${appRoot}" is not a folder.`);

  const cwd = definition.cwd ?? '.';
  if (isAbsolute(cwd) || /^[A-Za-z]:|^[/\\]/.test(cwd)) refuse(`cwd must be relative to the app root (got the absolute path "${cwd}").`);
  if (cwd.split(/[/\\]/).includes('..')) refuse(`cwd must stay inside the app root; ".." is refused (got "${cwd}").`);
  const dir = realDir(resolve(root, cwd)) ?? refuse(`cwd "${cwd}" is not a folder under ${root}.`);
  if (dir !== root && !dir.startsWith(root + sep)) refuse(`cwd "${cwd}" leads outside the app root (through a link).`);

  const command = typeof definition.command === 'string' ? splitCommand(definition.command, refuse) : [...definition.command];
  if (!command.length || !command[0]) refuse('command is empty.');
  if (placeholderNames(command[0]!).length) refuse(`the program (${command[0]}) must be fixed; placeholders may only fill arguments.`);
  const shape = definition.input.shape as Record<string, z.ZodType>;
  for (const key of command.flatMap(placeholderNames)) {
    if (!(key in shape)) refuse(`the command uses {{${key}}}, which is not an input field (fields: ${Object.keys(shape).join(', ') || 'none'}).`);
    if (!isScalar(toJsonSchema(shape[key]!))) refuse(`{{${key}}} must be a string, number or boolean field to fill one argument.`);
  }
  for (const key of definition.path_args ?? []) if (!(key in shape)) refuse(`path_args names "${key}", which is not an input field.`);
  const timeoutMs = definition.timeout_ms ?? 60_000;
  if (!(timeoutMs > 0 && Number.isFinite(timeoutMs))) refuse('timeout_ms must be a positive number of milliseconds.');

  const input = definition.input.superRefine((args, ctx) => checkArguments(command, definition.path_args ?? [], args, ctx));
  const judgesExit = (definition.expected_effect ?? []).some((p) => p.type === 'exit_code');
  const env: Record<string, string> = {};
  for (const key of PASSED_ENV) if (process.env[key] !== undefined) env[key] = process.env[key]!;
  Object.assign(env, definition.env);
  const kind = definition.kind ?? 'mutate';
  const { title } = definition;

  const source: ScriptSource = {
    type: 'script',
    command,
    cwd,
    timeout_ms: timeoutMs,
    async handler(args: Record<string, unknown>, ctx) {
      const argv = bindArgv(command, args, title);
      const exit = await runScript({
        program: command[0]!,
        args: argv,
        cwd: dir,
        env,
        timeoutMs,
        killGraceMs: definition.kill_grace_ms ?? 2_000,
        signal: ctx.signal,
        onOutput: (text, stream) => ctx.output(text, stream),
      });
      return scriptResult(title, exit, judgesExit, timeoutMs);
    },
  };

  const descriptor: CapabilityDescriptor<z.infer<S>> & { source: ScriptSource } = {
    name,
    title,
    description: definition.description,
    kind,
    input: input as unknown as z.ZodType<z.infer<S>>,
    annotations: { readOnlyHint: kind === 'read', ...definition.annotations },
    expected_effect: definition.expected_effect,
    probes: createFileProbe({ appRoot: root }),
    source,
  };
  if (definition.examples?.length) descriptor.examples = definition.examples;
  if (definition.actor) descriptor.actor = definition.actor;
  if (definition.requires_user_confirmation) descriptor.requires_user_confirmation = true;
  checkDescriptor(descriptor);
  return descriptor;
}

function scriptResult(title: string, exit: ScriptExit, judgesExit: boolean, timeoutMs: number): CapabilityResult {
  if (exit.cancelled) throw new CapabilityFailure('cancelled', `${title} was cancelled; its processes were stopped.`);
  if (exit.timedOut) {
    throw new CapabilityFailure('timeout', `${title} did not finish within ${timeoutMs / 1000} s, so its processes were stopped.`, true);
  }
  const structuredContent = {
    exit_code: exit.exitCode,
    ...(exit.signal ? { signal: exit.signal } : {}),
    duration_ms: Math.round(exit.durationMs),
  };
  const stderr = exit.stderrTail.trim();
  if (exit.exitCode === null) {
    return { content: [{ type: 'text', text: `${title} was stopped by ${exit.signal}.${stderr ? `\n${stderr}` : ''}` }], structuredContent, isError: true };
  }
  if (exit.exitCode !== 0 && !judgesExit) {
    return { content: [{ type: 'text', text: `${title} exited with code ${exit.exitCode}.${stderr ? `\n${stderr}` : ''}` }], structuredContent, isError: true };
  }
  const text = exit.stdoutTail.trim() || `${title} finished with exit code ${exit.exitCode} and printed nothing.`;
  return { content: [{ type: 'text', text }], structuredContent };
}

/**
 * The program's arguments from the template. A token whose field has no value is left out together
 * with the option before it (`--limit {{n}}`) or, when it is a positional argument, passed as an
 * empty argument, so the arguments after it keep their places.
 */
function bindArgv(command: readonly string[], args: Record<string, unknown>, title: string): string[] {
  const argv: string[] = [];
  const endOfOptions = command.indexOf('--');
  command.forEach((token, i) => {
    if (i === 0) return;
    const bound = bindPlaceholders(token, args);
    if (bound.ok) return void argv.push(bound.text);
    if (bound.reason !== 'has no value') throw new CapabilityFailure('invalid_arguments', `${title}: ${bound.name} ${bound.reason}.`);
    if (!wholePlaceholder(token)) return; // `--limit={{n}}`: the option goes with its value
    if (takesValue(command[i - 1], i - 1, endOfOptions)) return void argv.pop(); // `--limit {{n}}`: the option before it goes too
    argv.push('');
  });
  return argv;
}

/** True for the option token that a whole placeholder after it is the value of (`--limit` in `--limit {{n}}`). */
function takesValue(token: string | undefined, index: number, endOfOptions: number): boolean {
  return token !== undefined && index > 0 && /^-{1,2}[A-Za-z]/.test(token) && !token.includes('=') && placeholderNames(token).length === 0 && (endOfOptions === -1 || index < endOfOptions);
}

/** Refuses values that would be read as an option, NUL bytes, and paths that leave the app. */
function checkArguments(command: readonly string[], pathArgs: readonly string[], args: Record<string, unknown>, ctx: z.RefinementCtx): void {
  const endOfOptions = command.indexOf('--');
  command.forEach((token, i) => {
    for (const key of placeholderNames(token)) {
      const raw = args[key];
      // A number is checked as the text the program gets: -5 would be read as an option too.
      const value = typeof raw === 'number' ? String(raw) : raw;
      if (typeof value !== 'string') continue;
      if (value.includes('\0')) ctx.addIssue({ code: 'custom', path: [key], message: 'must not contain a NUL character' });
      if (wholePlaceholder(token) && value.startsWith('-') && (endOfOptions === -1 || i < endOfOptions)) {
        ctx.addIssue({ code: 'custom', path: [key], message: 'must not start with "-": the program would read it as an option' });
      }
    }
  });
  for (const key of pathArgs) {
    const value = args[key];
    if (typeof value === 'string' && (isAbsolute(value) || /^[A-Za-z]:|^[/\\~]/.test(value) || value.split(/[/\\]/).includes('..'))) {
      ctx.addIssue({ code: 'custom', path: [key], message: 'must be a path inside the app (no absolute path, no "..")' });
    }
  }
}

function splitCommand(command: string, refuse: (problem: string) => never): string[] {
  if (/["'`\\]/.test(command)) refuse('a command string cannot quote or escape; give an array of arguments instead.');
  return command.trim().split(/\s+/);
}

function isScalar(schema: Record<string, unknown>): boolean {
  const type = schema.type;
  if (type === 'string' || type === 'number' || type === 'integer' || type === 'boolean') return true;
  const values = Array.isArray(schema.enum) ? schema.enum : 'const' in schema ? [schema.const] : null;
  return !!values && values.every((v) => ['string', 'number', 'boolean'].includes(typeof v));
}

function realDir(path: string): string | null {
  try {
    const real = realpathSync(path);
    return statSync(real).isDirectory() ? real : null;
  } catch {
    return null;
  }
}
