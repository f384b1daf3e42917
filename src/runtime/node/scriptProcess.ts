import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { CapabilityFailure } from '../capability';

export interface ScriptRun {
  /** The program, never a shell: looked up on the child's PATH when it has no slash. */
  program: string;
  /** Each element is exactly one argument. */
  args: readonly string[];
  cwd: string;
  env: Readonly<Record<string, string>>;
  timeoutMs: number;
  /** Between SIGTERM and SIGKILL. */
  killGraceMs: number;
  signal: AbortSignal;
  onOutput(text: string, stream: 'stdout' | 'stderr'): void;
  /** Written to the process's standard input, which is then closed. @default none (stdin is /dev/null) */
  stdin?: string;
}

/** How a process ended. */
export interface ScriptExit {
  /** Null when a signal ended it. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  cancelled: boolean;
  durationMs: number;
  /** The last `TAIL` characters of each stream. */
  stdoutTail: string;
  stderrTail: string;
}

/** Characters of each stream kept for the result. */
export const TAIL = 4_000;
/** After the process exits, how long its pipes may stay open (a leftover grandchild) before they are closed. */
const DRAIN_MS = 200;

/**
 * Runs one process in its own process group, without a shell, streaming its
 * output. A timeout or an abort kills the whole group (SIGTERM, then SIGKILL
 * after the grace period). Rejects only when the program cannot be started.
 */
export function runScript(run: ScriptRun): Promise<ScriptExit> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(run.program, [...run.args], {
      cwd: run.cwd,
      env: run.env,
      shell: false,
      detached: true,
      windowsHide: true,
      stdio: [run.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    }) as ChildProcessByStdio<Writable | null, Readable, Readable>;
    if (run.stdin !== undefined && child.stdin) {
      // A program that exits without reading its input is not an error of ours.
      child.stdin.on('error', () => undefined);
      child.stdin.end(run.stdin);
    }
    let stdoutTail = '';
    let stderrTail = '';
    let timedOut = false;
    let cancelled = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    let finished = false;

    const killGroup = (sig: NodeJS.Signals) => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, sig);
      } catch {
        // The group is already gone.
      }
    };
    const stop = () => {
      killGroup('SIGTERM');
      setTimeout(() => killGroup('SIGKILL'), run.killGraceMs).unref();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, run.timeoutMs);
    const onAbort = () => {
      cancelled = true;
      stop();
    };
    if (run.signal.aborted) onAbort();
    else run.signal.addEventListener('abort', onAbort, { once: true });

    const finish = () => {
      if (finished || !exit) return;
      finished = true;
      clearTimeout(timer);
      run.signal.removeEventListener('abort', onAbort);
      child.stdout.destroy();
      child.stderr.destroy();
      resolve({
        exitCode: exit.code,
        signal: exit.signal,
        timedOut,
        cancelled,
        durationMs: performance.now() - started,
        stdoutTail,
        stderrTail,
      });
    };

    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (text: string) => {
      stdoutTail = (stdoutTail + text).slice(-TAIL);
      run.onOutput(text, 'stdout');
    });
    child.stderr.on('data', (text: string) => {
      stderrTail = (stderrTail + text).slice(-TAIL);
      run.onOutput(text, 'stderr');
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (exit || finished) return;
      finished = true;
      clearTimeout(timer);
      run.signal.removeEventListener('abort', onAbort);
      const why = error.code === 'ENOENT' ? 'no such program (or the working directory is missing)' : error.message;
      reject(new CapabilityFailure('spawn_failed', `Could not start "${run.program}": ${why}.`, false));
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      setTimeout(finish, DRAIN_MS);
    });
    child.on('close', () => finish());
  });
}
