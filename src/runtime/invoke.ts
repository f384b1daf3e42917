import type { CapabilityContext, CapabilityDescriptor } from './capability';
import { CapabilityResultSchema, errorResult, resultText, type CapabilityResult } from './envelope';
import { formatIssues, toFieldIssues, type CapabilityError, type Emit } from './events';
import { createId } from './ids';
import type { Registry } from './registry';

export interface InvokeOptions {
  registry: Registry;
  /** Where lifecycle events go (the thread's event log). */
  emit: Emit;
  threadId: string;
  /** Cancels the invocation: the card turns to error `cancelled` at once. */
  signal?: AbortSignal;
  /** @default a fresh `inv_…` id */
  invocationId?: string;
  /** The model turn that asked for it, if any. */
  turnId?: string;
}

/**
 * Runs a capability through its whole lifecycle: validate the arguments (a
 * field-level error and no handler call when they are wrong), emit
 * `capability.started`, stream progress and output, then `capability.done` or
 * `capability.error`. Never throws: failures come back as an error result.
 * @example
 * const result = await invoke('math.add', { a: 1, b: 2 }, { registry, emit: log.emit, threadId: 't1' });
 */
export async function invoke(name: string, args: unknown, options: InvokeOptions): Promise<CapabilityResult> {
  const { registry, emit, threadId, signal, turnId } = options;
  const invocationId = options.invocationId ?? createId('inv');
  const descriptor = registry.get(name);

  const fail = (error: CapabilityError, recoverable: boolean, title?: string, result?: CapabilityResult) => {
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

  if (!descriptor) {
    const known = registry.list().map((d) => d.name).join(', ') || 'none';
    return fail({ code: 'unknown_capability', message: `No capability is named "${name}". Known: ${known}.` }, false);
  }

  const parsed = descriptor.input.safeParse(args ?? {});
  if (!parsed.success) {
    return fail(
      {
        code: 'invalid_arguments',
        message: `${descriptor.title} was not run: ${formatIssues(parsed.error.issues)}.`,
        issues: toFieldIssues(parsed.error.issues),
      },
      true,
      descriptor.title,
    );
  }

  if (signal?.aborted) {
    return fail({ code: 'cancelled', message: `${descriptor.title} was cancelled before it started.` }, true, descriptor.title);
  }

  emit({
    type: 'capability.started',
    invocation_id: invocationId,
    capability: descriptor.name,
    title: descriptor.title,
    args: parsed.data,
    ...(descriptor.actor ? { actor: descriptor.actor } : {}),
    ...(turnId ? { turn_id: turnId } : {}),
  });

  let settled = false;
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });

  const ctx: CapabilityContext = {
    invocationId,
    threadId,
    signal: controller.signal,
    progress(progress, total, message) {
      if (settled) return;
      emit({
        type: 'capability.progress',
        invocation_id: invocationId,
        progress,
        ...(total !== undefined ? { total } : {}),
        ...(message !== undefined ? { message } : {}),
      });
    },
    output(text, stream = 'log') {
      if (settled) return;
      emit({ type: 'capability.output', invocation_id: invocationId, stream, text });
    },
  };

  try {
    const outcome = await raceAbort(runHandler(descriptor, parsed.data, ctx), controller.signal);
    settled = true;
    if (outcome === ABORTED) {
      return fail({ code: 'cancelled', message: `${descriptor.title} was cancelled.` }, true, descriptor.title);
    }
    const checked = checkResult(descriptor, outcome);
    if ('problem' in checked) {
      return fail({ code: 'invalid_result', message: checked.problem }, false, descriptor.title);
    }
    if (checked.result.isError) {
      const message = resultText(checked.result) || `${descriptor.title} reported an error.`;
      return fail({ code: 'tool_error', message }, true, descriptor.title, checked.result);
    }
    emit({ type: 'capability.done', invocation_id: invocationId, result: checked.result });
    return checked.result;
  } catch (error) {
    settled = true;
    const message = error instanceof Error ? error.message : String(error);
    return fail({ code: 'handler_error', message: `${descriptor.title} failed: ${message}` }, true, descriptor.title);
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

const ABORTED = Symbol('aborted');

async function runHandler(descriptor: CapabilityDescriptor, args: unknown, ctx: CapabilityContext): Promise<unknown> {
  switch (descriptor.source.type) {
    case 'ts':
      return descriptor.source.handler(args, ctx);
    default:
      return descriptor.source.type satisfies never;
  }
}

function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T | typeof ABORTED> {
  if (signal.aborted) return Promise.resolve(ABORTED);
  return new Promise((resolve, reject) => {
    signal.addEventListener('abort', () => resolve(ABORTED), { once: true });
    work.then(resolve, reject);
  });
}

function checkResult(
  descriptor: CapabilityDescriptor,
  raw: unknown,
): { result: CapabilityResult } | { problem: string } {
  const parsed = CapabilityResultSchema.safeParse(raw);
  if (!parsed.success) {
    return {
      problem: `${descriptor.title} returned something that is not a result (${formatIssues(parsed.error.issues)}).`,
    };
  }
  const result = parsed.data;
  if (descriptor.output && !result.isError) {
    const out = descriptor.output.safeParse(result.structuredContent ?? {});
    if (!out.success) {
      return { problem: `${descriptor.title} returned data that does not match its output schema (${formatIssues(out.error.issues)}).` };
    }
  }
  return { result };
}
