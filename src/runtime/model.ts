import type { AttachmentRef } from './events/messages';
import type { Suggestion } from './anticipation';
import type { CapabilityResult } from './envelope';
import type { Citation, DriverInfo, Usage } from './events';
import type { CapabilityInfo } from './registry';

/** `strict` proposes anything the user did not name; `loose` runs a single clear match. */
export type Alignment = 'strict' | 'loose';

/** What the intent router made of the user's message (see `routeIntent`). */
export interface Route {
  kind: 'one_shot' | 'standing' | 'ambiguous';
  /** How often a standing request repeats, in the user's words (e.g. `every week`). */
  cadence?: string;
  /** The phrases that decided it, for the prompt and for tests. */
  cues: readonly string[];
}

/**
 * Names of the engine's own verbs in a conversation. They start with `@`, which
 * capability names cannot contain, so they never collide with a host's verbs.
 */
export const CONTROL = {
  /** Show a capability with arguments for the user to accept or dismiss. */
  propose: '@propose',
  /** Ask the user one question with quick answers. */
  ask: '@ask',
  /** Hand a standing request ("watch", "every week") to the host. */
  standing: '@standing',
} as const;

/** `_meta` key on a result the user declined (`denied`, `dismissed`, or `superseded` by a new message). */
export const DECLINED_META = 'chatsurface/declined';

/** One tool call the model made: a capability, or one of the `CONTROL` verbs. */
export interface ToolCall {
  id: string;
  /** A capability name or a `CONTROL` verb. */
  capability: string;
  args: unknown;
}

/** A postcondition that did not hold, as the model is told about it. */
export interface ViolationNote {
  invocation_id: string;
  capability: string;
  /** Title of the capability whose check failed. */
  title: string;
  postcondition: string;
  expected: string;
  actual: string;
  message: string;
}

/**
 * A block of the model's reasoning as the provider must get it back, unmodified: its text with
 * the provider's signature, or reasoning the provider's safety systems hid (opaque `data`).
 */
export type ThinkingBlock =
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string };

/** The conversation as a model sees it. Append-only: a request is a pure function of it. */
export type ModelMessage =
  | {
      role: 'user';
      text: string;
      /** Files the message carries, by id: a driver that sends files reads their bytes when it builds the request (`AttachmentResolver`). */
      attachments?: readonly AttachmentRef[];
    }
  | {
      role: 'assistant';
      text: string;
      calls?: readonly ToolCall[];
      /** The step's reasoning blocks, in order, as a driver that reasons must send them back (before the calls). */
      thinking?: readonly ThinkingBlock[];
    }
  | {
      role: 'tool';
      /** The model call this answers; absent when the user ran the capability directly (a chip). */
      call_id?: string;
      capability: string;
      title: string;
      args: unknown;
      result: CapabilityResult;
      /** Postconditions that failed after it ran. */
      violations?: readonly ViolationNote[];
    };

/** A skill whose whole SKILL.md body is loaded into the active-skills slab. */
export interface ActiveSkill {
  name: string;
  title: string;
  /** The whole body, never truncated. */
  body: string;
}

/** A passage retrieved for this turn (slab [7]). */
export interface CorpusPassage {
  id?: string;
  title?: string;
  text: string;
}

/** A quick answer to a clarifying question. */
export interface QuestionOption {
  label: string;
  value: string;
}

/**
 * What a driver streams back: text to show, one intent, the step's token usage, or the model's
 * reasoning: its text as it streams (`reasoning`), the end of one reasoning block (`reasoning_end`,
 * `redacted` when the provider hid it), and the step's blocks as they go back to the model
 * (`thinking`, once, after the step's stream ended well); or a source the text cites
 * (`citation`: its `range` in the step's text as streamed so far, UTF-16 offsets, sent once the
 * cited text is out).
 */
export type DriverChunk =
  | { type: 'text'; text: string }
  | { type: 'citation'; citation: Citation }
  | { type: 'reasoning'; text: string }
  | { type: 'reasoning_end'; redacted?: boolean }
  | { type: 'thinking'; blocks: readonly ThinkingBlock[] }
  /**
   * A piece of a capability call's arguments while the model writes them (the JSON text as it
   * streams, before the call's `invoke`): its card shows them as they come. Optional for a driver.
   */
  | { type: 'call_args'; call_id: string; capability: string; delta: string }
  | { type: 'invoke'; capability: string; args: unknown; call_id?: string }
  | { type: 'propose'; capability: string; args: unknown; reason?: string; call_id?: string }
  | {
      type: 'ask';
      question: string;
      options: readonly QuestionOption[];
      /** `route` when it is the intent router's "once or keep watching?" question. */
      purpose?: 'route';
      call_id?: string;
    }
  | { type: 'standing'; text: string; cadence?: string; call_id?: string }
  | { type: 'usage'; usage: Usage };

/** Everything besides the conversation that shapes a turn's prompt (the slabs). */
export interface PromptContext {
  /** @default 'strict' */
  alignment: Alignment;
  /** The intent router's reading of the user's message. */
  route: Route;
  /** True once the one clarifying question of this request was asked. */
  asked: boolean;
  /** The composer's model selection; a driver uses its default when absent. */
  model?: string;
  /** Slab [3]: active skills, in activation order. */
  skills: readonly ActiveSkill[];
  /** Slab [4]: per-organisation reminders ('' for none). */
  reminders: string;
  /** Slab [5]: suggested next verbs (the anticipation map's entry). */
  suggestions: readonly Suggestion[];
  /** Slab [7]: passages retrieved for this turn. */
  corpus: readonly CorpusPassage[];
  /** Postconditions that failed since the last turn: the reply must acknowledge them. */
  violations: readonly ViolationNote[];
  /** The skill this very message loaded with a directive (`/summarize the records` → `/summarize`), if any. */
  loadedSkill?: string;
  /** Reads the bytes of the files users' messages carry (the thread principal's own); absent where there is no attachment store. */
  readAttachment?: AttachmentReader;
}

/** The bytes of a file a user's message carries, read when a request is built; null when it is gone (deleted since). */
export type AttachmentReader = (file: AttachmentRef, signal: AbortSignal) => Promise<Uint8Array | null>;

export interface ModelRequest extends Partial<PromptContext> {
  /** Slab [6] and [8]: the thread, ending with the current turn. */
  messages: readonly ModelMessage[];
  /** Slab [2]: the verbs this turn may use, in the registry's stable order. */
  capabilities: readonly CapabilityInfo[];
  signal: AbortSignal;
}

/** A model behind one small interface: the offline driver, Claude, or a host's own. */
export interface ModelDriver {
  /** Shown on the surface so users know which model answers. */
  info: DriverInfo;
  /**
   * The models this driver can answer with, its default first: the model
   * picker lists these instead of the Anthropic SDK's models. @default Claude's models
   */
  models?: readonly string[];
  respond(request: ModelRequest): AsyncIterable<DriverChunk>;
}

/**
 * A model failure a user can act on (a bad key, a rate limit): drivers throw
 * it and the turn shows `code` and `message` as they are.
 */
export class ModelError extends Error {
  override name = 'ModelError';
  constructor(
    /** Stable code, e.g. `auth_failed`, `rate_limited`, `overloaded`, `api_unreachable`. */
    readonly code: string,
    message: string,
    /** True when trying again later may work. */
    readonly recoverable: boolean,
  ) {
    super(message);
  }
}
