import type { Harness, HarnessContext, HarnessStatus } from '../harness';
import { runScript, type ScriptExit } from './scriptProcess';

export interface ProcessHarnessOptions {
  /** What the transcript calls its replies ("Claude Code"). */
  label: string;
  /** The program and arguments that take one message on standard input and print the answer (e.g. `['claude', '-p']`). Never a shell. */
  send: readonly string[];
  /** Signs in; prints a line for the user. */
  login: readonly string[];
  /** Signs out; prints a line for the user. */
  logout: readonly string[];
  /** Prints `{"signedIn": true|false, "detail"?: "…"}`. */
  status: readonly string[];
  /** @default process.cwd() */
  cwd?: string;
  /** Added to a small environment (PATH, HOME, LANG): the harness sees no server secret unless it is passed here. */
  env?: Readonly<Record<string, string>>;
  /** A message's answer may take this long before the process is killed. @default 300000 */
  timeoutMs?: number;
}

/**
 * A harness that runs a local command-line program per message: the
 * message goes to its standard input as typed, its standard output streams
 * into the transcript. The program gets the thread and user as
 * `CHATSURFACE_THREAD` and `CHATSURFACE_USER`, a small environment of its own
 * (no server secrets), and is killed with its process group on Stop or timeout.
 * @example
 * createThreadHost({ capabilities, harnesses: {
 *   'Harness/claude-code': createProcessHarness({ label: 'Claude Code', send: ['claude', '-p'], login: ['claude', 'login'], logout: ['claude', 'logout'], status: ['claude', 'status', '--json'] }),
 * } });
 */
export function createProcessHarness(options: ProcessHarnessOptions): Harness {
  const { label, cwd = process.cwd(), timeoutMs = 300_000 } = options;
  for (const key of ['send', 'login', 'logout', 'status'] as const) {
    if (!Array.isArray(options[key]) || options[key].length === 0 || options[key].some((part) => typeof part !== 'string')) {
      throw new Error(`createProcessHarness(${label}): ${key} must be a program and its arguments, e.g. ['node', 'harness.mjs', '${key}'].`);
    }
  }
  const envFor = (context: HarnessContext): Record<string, string> => ({
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/',
    LANG: process.env.LANG ?? 'C.UTF-8',
    ...options.env,
    CHATSURFACE_THREAD: context.threadId,
    CHATSURFACE_USER: context.user,
  });

  /** Runs one command; `onOutput` hears stdout as it comes. Rejects with the program's own words when it fails. */
  const run = async (command: readonly string[], context: HarnessContext, onOutput: (text: string) => void, stdin?: string): Promise<ScriptExit> => {
    let exit: ScriptExit;
    try {
      exit = await runScript({
        program: command[0]!,
        args: command.slice(1),
        cwd,
        env: envFor(context),
        timeoutMs,
        killGraceMs: 2_000,
        signal: context.signal,
        onOutput: (text, stream) => {
          if (stream === 'stdout') onOutput(text);
        },
        ...(stdin !== undefined ? { stdin } : {}),
      });
    } catch (error) {
      throw new Error(`could not start ${command[0]} (${(error as Error).message}).`);
    }
    if (exit.cancelled) return exit;
    if (exit.timedOut) throw new Error(`it gave no answer within ${Math.round(timeoutMs / 1000)} s, so it was stopped.`);
    if (exit.exitCode !== 0) {
      const said = exit.stderrTail.trim().split('\n').slice(-3).join(' ').trim();
      throw new Error(said || `it exited with code ${exit.exitCode ?? exit.signal}.`);
    }
    return exit;
  };

  const line = async (command: readonly string[], context: HarnessContext) => {
    let out = '';
    await run(command, context, (text) => (out += text));
    return out.trim();
  };

  return {
    label,
    async *send(text, context) {
      // Output arrives through a callback; the generator hands it on as it comes.
      const chunks: string[] = [];
      let wake: (() => void) | null = null;
      let done = false;
      let failure: unknown = null;
      void run(options.send, context, (chunk) => {
        chunks.push(chunk);
        wake?.();
      }, text).then(
        () => {
          done = true;
          wake?.();
        },
        (error: unknown) => {
          failure = error;
          done = true;
          wake?.();
        },
      );
      for (;;) {
        if (chunks.length) {
          yield chunks.splice(0).join('');
          continue;
        }
        if (done) break;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
      }
      if (failure) throw failure;
    },
    login: (context) => line(options.login, context),
    logout: (context) => line(options.logout, context),
    async status(context): Promise<HarnessStatus> {
      const out = await line(options.status, context);
      let parsed: unknown;
      try {
        parsed = JSON.parse(out);
      } catch {
        throw new Error(`its status was not JSON: "${out.slice(0, 120)}".`);
      }
      const status = parsed as { signedIn?: unknown; detail?: unknown };
      if (typeof status.signedIn !== 'boolean') throw new Error('its status has no signedIn true or false.');
      return { signedIn: status.signedIn, ...(typeof status.detail === 'string' ? { detail: status.detail } : {}) };
    },
  };
}
