import { Cancellation } from './cancellation';
import { CapabilityFailure, type CapabilityContext, type CapabilityDescriptor } from './capability';
import { CapabilityResultSchema, type CapabilityResult } from './envelope';
import { errorResult, resultText, textResult } from './results';
import { formatIssues, toFieldIssues, type CapabilityError, type Emit, type FieldIssue } from './events';
import type { Violation } from './fold';
import { createId } from './ids';
import { defaultJobStore, trackJob, type Job, type JobStore } from './jobs';
import { fieldTitle, issueSentence } from './issueWords';
import { checkPostconditions, sampleBaseline } from './postconditionChecks';
import type { Baseline, PostconditionProbes } from './postconditions';
import { toJsonSchema, type Registry } from './registry';

export interface InvokeOptions {
  registry: Registry;
  /** Where lifecycle events go (the thread's event log). */
  emit: Emit;
  /** The thread it runs for, as the job's `threadKey` (a thread host passes `threadKey(ref)`; a page's own workspace its thread id). */
  threadKey: string;
  /** Cancels the invocation: the card turns to `cancelled` at once; handlers, MCP calls and scripts are stopped. */
  signal?: AbortSignal;
  /** @default a fresh `inv_…` id */
  invocationId?: string;
  /** The model turn that asked for it, if any. */
  turnId?: string;
  /** The model's tool call that asked for it, if any (put on `capability.started`). */
  callId?: string;
  /**
   * A SKILL.md capability gives its whole instructions as its result instead
   * of loading them into the active-skills slab: for callers that have no
   * slab (an external agent on REST or MCP). @default false
   */
  skillInstructions?: boolean;
  /**
   * With `skillInstructions`: runs a SKILL.md capability that launches a sub-thread
   * (`metadata.launchesSubThread: "true"`) in a thread of its own and gives its outcome
   * (the thread host's `runSkillThread`). Without it such a skill gives its instructions.
   */
  runSkillThread?: (descriptor: CapabilityDescriptor, args: unknown, ctx: CapabilityContext) => Promise<CapabilityResult>;
  /** Where the invocation's job record is kept. @default `defaultJobStore(registry)`, in memory */
  jobs?: JobStore;
  /** How postconditions look at the workspace (the host's row counter, a file lister); a capability's own probes come first. */
  probes?: PostconditionProbes;
  /** Milliseconds for durations. @default performance.now */
  clock?: () => number;
  /**
   * The arguments as the caller already validated them against this capability's input schema
   * (a door's `safeParse` output): used as they are instead of being parsed a second time.
   */
  checkedArgs?: { data: unknown };
}

/** What the executor passes beside the public options (not part of `InvokeOptions`). */
export interface InvokeInternals {
  /** Instead of `signal`: a cancel whose `AbortSignal` is made only if the handler asks for `ctx.signal`. */
  cancellation?: Cancellation;
}

/** `_meta` key of the violations on the result `invoke` returns (the `capability.done` event holds the handler's result). */
export const VIOLATIONS_META = 'chatsurface/violations';

/**
 * Runs a capability through its whole lifecycle: validate the arguments (a
 * field-level error and no handler call when they are wrong), emit
 * `capability.started`, stream progress and output, then `capability.done`
 * (followed by one `capability.quality_violation` per failed postcondition
 * and `quality.slow` past a duration bound) or `capability.error`. Keeps a
 * job record throughout. Never throws: failures come back as an error result.
 * @example
 * const result = await invoke('math.add', { a: 1, b: 2 }, { registry, emit: log.emit, threadKey: 't1' });
 */
export async function invoke(name: string, args: unknown, options: InvokeOptions): Promise<CapabilityResult> {
  const { registry, emit, threadKey, signal, turnId } = options;
  const invocationId = options.invocationId ?? createId('inv');
  const descriptor = registry.get(name);
  const store = options.jobs ?? defaultJobStore(registry);
  const clock = options.clock ?? (() => performance.now());
  const createdAt = Date.now();
  const job: Job = { id: invocationId, capability: name, threadKey, status: 'running', createdAt, updatedAt: createdAt };

  const errorEvent = (error: CapabilityError, recoverable: boolean, title?: string, result?: CapabilityResult) => {
    emit({
      type: 'capability.error',
      invocation_id: invocationId,
      capability: name,
      ...(title !== undefined ? { title } : {}),
      error,
      recoverable,
      ...(result ? { result } : {}),
    });
    return result ?? errorResult(error.message);
  };
  /** Refused before it ran: one job record, one error event. */
  const refuse = async (error: CapabilityError, recoverable: boolean, title?: string) => {
    const result = errorEvent(error, recoverable, title);
    const status = error.code === 'cancelled' ? 'cancelled' : 'failed';
    await store.put({ ...job, status, error }).catch(() => undefined);
    return result;
  };

  if (!descriptor) {
    const known = registry.list().map((d) => d.name).join(', ') || 'none';
    return refuse({ code: 'unknown_capability', message: `No capability is named "${name}". Known: ${known}.` }, false);
  }

  // A door validated them already (it refuses with a 400 before anything runs): not parsed twice.
  const parsed = options.checkedArgs ? { success: true as const, data: options.checkedArgs.data } : descriptor.input.safeParse(args ?? {});
  const conflicts = descriptor.pinned ? pinnedConflicts(descriptor, args) : [];
  const issues = parsed.success ? conflicts : [...conflicts, ...toFieldIssues(parsed.error.issues)];
  if (!parsed.success || issues.length) {
    return refuse({ code: 'invalid_arguments', message: `${descriptor.title} was not run: ${issuesInWords(descriptor, issues)}`, issues }, true, descriptor.title);
  }
  // How the invocation hears a cancel: the caller's cancellation, its signal, or one never aborted.
  const cancel: Cancel = (options as InvokeOptions & InvokeInternals).cancellation ?? (signal ? signalCancel(signal) : new Cancellation());
  if (cancel.aborted) {
    return refuse({ code: 'cancelled', message: `${descriptor.title} was cancelled before it started.` }, true, descriptor.title);
  }
  const runArgs = descriptor.pinned ? { ...(parsed.data as object), ...descriptor.pinned } : parsed.data;

  let storeFailed = false;
  const tracker = trackJob(store, job, {
    onError(error) {
      if (storeFailed) return;
      storeFailed = true;
      const message = error instanceof Error ? error.message : String(error);
      emit({ type: 'capability.output', invocation_id: invocationId, stream: 'log', text: `The job record could not be saved: ${message}\n` });
    },
  });
  emit({
    type: 'capability.started',
    invocation_id: invocationId,
    capability: descriptor.name,
    title: descriptor.title,
    args: parsed.data,
    ...(descriptor.actor ? { actor: descriptor.actor } : {}),
    ...(turnId ? { turn_id: turnId } : {}),
    ...(options.callId ? { call_id: options.callId } : {}),
  });

  let settled = false;
  let stdout: string | null = descriptor.source.type === 'script' ? '' : null;
  const ctx: CapabilityContext = {
    invocationId,
    threadKey,
    // The caller's signal (it aborts with the caller's reason), made when the handler first asks for it.
    get signal() {
      return cancel.signal;
    },
    progress(progress, total, message) {
      if (settled) return;
      const info = { progress, ...(total !== undefined ? { total } : {}), ...(message !== undefined ? { message } : {}) };
      emit({ type: 'capability.progress', invocation_id: invocationId, ...info });
      tracker.progress(info);
    },
    output(text, stream = 'log') {
      if (settled) return;
      if (stream === 'stdout' && (stdout ?? '').length < STDOUT_KEPT) stdout = (stdout ?? '') + text;
      emit({ type: 'capability.output', invocation_id: invocationId, stream, text });
    },
  };

  const fail = async (error: CapabilityError, recoverable: boolean, result?: CapabilityResult) => {
    const returned = errorEvent(error, recoverable, descriptor.title, result);
    await tracker.finish({ status: error.code === 'cancelled' ? 'cancelled' : 'failed', error, ...(result ? { result } : {}) });
    return returned;
  };

  try {
    const effect = descriptor.expected_effect ?? [];
    const probes: PostconditionProbes = effect.length ? { ...options.probes, ...descriptor.probes } : {};
    let baseline: Baseline | null = null;
    if (effect.length) {
      const sampled = await raceAbort(sampleBaseline(effect, runArgs as Record<string, unknown>, probes), cancel);
      if (sampled !== CANCELLED) baseline = sampled;
    }
    const t0 = clock();
    const outcome = cancel.aborted ? CANCELLED : await raceAbort(runHandler(descriptor, runArgs, ctx, emit, options.skillInstructions ?? false, options.runSkillThread), cancel);
    const durationMs = clock() - t0;
    settled = true;
    if (outcome === CANCELLED) {
      // Stopped because its record could not be kept (the database went away): interrupted, not cancelled by anyone.
      const reason = cancel.reason as { code?: unknown; message?: unknown } | undefined;
      if (reason?.code === 'interrupted') return await fail({ code: 'interrupted', message: String(reason.message) }, true);
      return await fail({ code: 'cancelled', message: `${descriptor.title} was cancelled.` }, true);
    }
    const checked = checkResult(descriptor, outcome);
    if ('problem' in checked) return await fail({ code: 'invalid_result', message: checked.problem }, false);
    const { result } = checked;
    if (result.isError) {
      const message = resultText(result) || `${descriptor.title} reported an error.`;
      return await fail({ code: 'tool_error', message }, true, result);
    }
    emit({ type: 'capability.done', invocation_id: invocationId, result });

    let violations: Violation[] = [];
    if (effect.length && baseline) {
      const seen = { title: descriptor.title, args: runArgs as Record<string, unknown>, result, stdout, durationMs };
      const verdict = await checkPostconditions(effect, baseline, seen, probes);
      violations = verdict.violations;
      if (verdict.passed.length) emit({ type: 'capability.checked', invocation_id: invocationId, checks: verdict.passed });
      for (const v of violations) emit({ type: 'capability.quality_violation', invocation_id: invocationId, ...v });
      if (verdict.slow) emit({ type: 'quality.slow', invocation_id: invocationId, ...verdict.slow });
    }
    await tracker.finish({ status: 'done', result, ...(violations.length ? { violations } : {}) });
    return violations.length ? { ...result, _meta: { ...result._meta, [VIOLATIONS_META]: violations } } : result;
  } catch (error) {
    settled = true;
    if (error instanceof CapabilityFailure) return await fail({ code: error.code, message: error.message }, error.recoverable);
    const message = error instanceof Error ? error.message : String(error);
    return await fail({ code: 'handler_error', message: `${descriptor.title} failed: ${message}` }, true);
  }
}

/** Stdout kept for `stdout_matches` (the card keeps its own, shorter tail). */
const STDOUT_KEPT = 4 * 1024 * 1024;
const CANCELLED = Symbol('cancelled');

async function runHandler(
  descriptor: CapabilityDescriptor,
  args: unknown,
  ctx: CapabilityContext,
  emit: Emit,
  skillInstructions: boolean,
  runSkillThread?: InvokeOptions['runSkillThread'],
): Promise<unknown> {
  const { source } = descriptor;
  switch (source.type) {
    case 'ts':
    case 'mcp':
    case 'script':
      return source.handler(args, ctx);
    case 'skill':
      // A sub-thread skill on REST or MCP: it runs in a thread of its own; the caller gets the outcome.
      if (skillInstructions && runSkillThread && source.frontmatter.metadata?.launchesSubThread === 'true') return runSkillThread(descriptor, args, ctx);
      if (skillInstructions) {
        // No slab to load it into: the caller gets the instructions themselves.
        return textResult(source.body, { skill: descriptor.name, instructions: true });
      }
      emit({ type: 'skill.activated', skill: descriptor.name, title: descriptor.title, invocation_id: ctx.invocationId });
      return textResult(
        `The "${descriptor.title}" skill is active: its instructions are now part of the assistant's context.`,
        { skill: descriptor.name, active: true },
      );
    default:
      return source satisfies never;
  }
}

/** A caller may leave a pinned argument out or repeat its value; any other value is refused. */
function pinnedConflicts(descriptor: CapabilityDescriptor, args: unknown): FieldIssue[] {
  if (!descriptor.pinned || args === null || typeof args !== 'object') return [];
  const given = args as Record<string, unknown>;
  return Object.entries(descriptor.pinned)
    .filter(([key, value]) => key in given && JSON.stringify(given[key]) !== JSON.stringify(value))
    .map(([key]) => ({ path: key, message: 'is fixed by the host and cannot be changed; leave it out' }));
}

/** What `invoke` needs of a cancel: a `Cancellation`, or an `AbortSignal` seen as one. */
type Cancel = Pick<Cancellation, 'aborted' | 'reason' | 'signal' | 'onAbort'>;

function signalCancel(signal: AbortSignal): Cancel {
  return {
    get aborted() {
      return signal.aborted;
    },
    get reason() {
      return signal.reason as unknown;
    },
    signal,
    onAbort(listener) {
      signal.addEventListener('abort', listener, { once: true });
      return () => signal.removeEventListener('abort', listener);
    },
  };
}

/** The work's outcome, or CANCELLED once `cancel` aborts; its listener goes when the work settles (the cancel may outlive it). */
function raceAbort<T>(work: Promise<T>, cancel: Cancel): Promise<T | typeof CANCELLED> {
  if (cancel.aborted) return Promise.resolve(CANCELLED);
  return new Promise((resolve, reject) => {
    const off = cancel.onAbort(() => resolve(CANCELLED));
    work.then(
      (value) => {
        off();
        resolve(value);
      },
      (error: unknown) => {
        off();
        reject(error);
      },
    );
  });
}

function checkResult(
  descriptor: CapabilityDescriptor,
  raw: unknown,
): { result: CapabilityResult } | { problem: string } {
  let result = plainTextResult(raw);
  if (!result) {
    const parsed = CapabilityResultSchema.safeParse(raw);
    if (!parsed.success) {
      return {
        problem: `${descriptor.title} returned something that is not a result (${formatIssues(parsed.error.issues)}).`,
      };
    }
    result = parsed.data;
  }
  if (descriptor.output && !result.isError) {
    const out = descriptor.output.safeParse(result.structuredContent ?? {});
    if (!out.success) {
      return { problem: `${descriptor.title} returned data that does not match its output schema (${formatIssues(out.error.issues)}).` };
    }
  }
  return { result };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
};

/**
 * A result of the commonest shape, `textResult`'s (text blocks with nothing else, structured
 * content, `isError`), which `CapabilityResultSchema` would give back unchanged: taken as it is,
 * without the parse. Anything else (another block, annotations, `_meta`, a display hint) is null
 * and goes through the schema.
 */
function plainTextResult(raw: unknown): CapabilityResult | null {
  if (!isPlainObject(raw) || !Array.isArray(raw.content)) return null;
  for (const key in raw) if (key !== 'content' && key !== 'structuredContent' && key !== 'isError') return null;
  for (const block of raw.content as unknown[]) {
    if (!isPlainObject(block) || block.type !== 'text' || typeof block.text !== 'string') return null;
    for (const key in block) if (key !== 'type' && key !== 'text') return null;
  }
  if ('structuredContent' in raw && !isPlainObject(raw.structuredContent)) return null;
  if ('isError' in raw && typeof raw.isError !== 'boolean') return null;
  return raw as CapabilityResult;
}

/**
 * Bad arguments as a person reads them: one sentence a problem, each field named by its title
 * ("Sections must be 20 or less."). The chat door says this too; REST and MCP keep the field paths.
 */
export function issuesInWords(descriptor: CapabilityDescriptor, issues: readonly FieldIssue[]): string {
  const schema = toJsonSchema(descriptor.input);
  return issues.map((i) => (i.path ? issueSentence(fieldTitle(i.path.split('.')[0]!, schema), i.message) : sentenceOf(i.message))).join(' ');
}

function sentenceOf(text: string): string {
  const t = text.trim();
  return /[.!?]$/.test(t) ? t : `${t}.`;
}
