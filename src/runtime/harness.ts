/** Who asks the harness, and how to stop it. */
export interface HarnessContext {
  threadId: string;
  user: string;
  signal: AbortSignal;
}

/** What a harness says about its sign-in. */
export interface HarnessStatus {
  signedIn: boolean;
  /** One line for the user ("Signed in as ada@example.com."). */
  detail?: string;
}

/**
 * A command-line agent the thread can be handed to (Claude Code, Copilot, a
 * host's own): under it, the chat's model does not answer. The text the user
 * types (a `/skill task` line included) goes to `send` unchanged and its
 * answer streams into the transcript as the harness's reply; the harness's
 * own commands (its catalog node's `commands`, e.g. `login`, `logout`,
 * `status`) go to the methods of the same name. Errors are thrown with a
 * message the user can act on.
 * @example
 * createThreadHost({ capabilities, harnesses: { 'Harness/echo': createProcessHarness({ label: 'Echo', send: ['node', 'echo.mjs', 'send'] }) } });
 */
export interface Harness {
  /** What the transcript calls its replies ("Claude Code"). */
  readonly label: string;
  /** Hands the text over 1:1; yields the answer as it comes. */
  send(text: string, context: HarnessContext): AsyncIterable<string>;
  /** Signs in; resolves with a line for the user. */
  login(context: HarnessContext): Promise<string>;
  /** Signs out; resolves with a line for the user. */
  logout(context: HarnessContext): Promise<string>;
  status(context: HarnessContext): Promise<HarnessStatus>;
}

/** The harness's own commands: what a typed `/word` runs instead of a message. */
export const HARNESS_COMMANDS = ['login', 'logout', 'status'] as const;
export type HarnessCommand = (typeof HARNESS_COMMANDS)[number];

/** The harness command a message is (`/login`, `/logout`, `/status`, alone on the line) among `owned`, or null. */
export function harnessCommandOf(text: string, owned: readonly string[]): HarnessCommand | null {
  const word = /^\/([a-z]+)\s*$/.exec(text.trim())?.[1];
  return word && owned.includes(word) && (HARNESS_COMMANDS as readonly string[]).includes(word) ? (word as HarnessCommand) : null;
}
