import type { ComponentType } from 'react';
import type { CapabilityResult } from '../../runtime/envelope';
import type { InvocationRow } from '../../runtime/fold';

// The types of a host's own component for a capability's result ("tool UI", issue 41 item 5).

/** A result as a renderer gets it: the `CapabilityResult`, with `structured` its `structuredContent` typed as the host says. */
export type RenderedResult<Structured = unknown> = CapabilityResult & {
  /** `structuredContent`, typed as the renderer declares (not checked: the capability's output schema is what vouches for it). */
  structured: Structured | undefined;
};

/** What a renderer gets: the invocation's arguments, its result, state, progress, output and error, and the row itself. */
export interface CapabilityRendererProps<Args = unknown, Structured = unknown> {
  /**
   * The arguments it was called with, typed as the renderer declares (the capability's input
   * schema checked them). While `writing`, what the model has written so far, parsed leniently: a
   * field may be missing or cut short (`{ stage: 'le' }`), or the whole `undefined` before the first.
   */
  args: Args;
  /**
   * True while the model is still writing the call's arguments (streamed, at most one update a
   * frame), before it runs: `state` is `queued`, the status line says "Writing arguments…".
   */
  writing: boolean;
  /** The result once it is done (also on a tool error, `isError: true`); absent before. */
  result?: RenderedResult<Structured>;
  /** `queued`, `running`, `done`, `failed` or `cancelled`; output while running means it streams. */
  state: InvocationRow['state'];
  /** The handler's last progress report (`progress`, `total`, `message`), while it runs and after. */
  progress?: InvocationRow['progress'];
  /** Streamed output so far (the last 8,000 characters); `''` when none. */
  output: string;
  /** Why it failed or was cancelled. */
  error?: InvocationRow['error'];
  /** The whole row, for anything else (`id`, `title`, `checks`, timings). */
  row: InvocationRow;
}

/**
 * A host's component for the body of a capability's card. The kit keeps the title, status line,
 * Cancel, Retry, checks and Details around it; the component shows everything between (it replaces
 * the progress bar, streamed output, result summary, media and app view), while the invocation runs
 * and after it ends. It renders again only when its row changes. Inside it,
 * `<InvocationCard.Progress />` and `<InvocationCard.Result />` give the kit's own parts.
 * @example
 * const RecordsTable: CapabilityRenderer<{ stage?: string }, { records: { name: string }[] }> = ({ result }) => (
 *   <ul>{result?.structured?.records.map((r) => <li key={r.name}>{r.name}</li>)}</ul>
 * );
 * <ChatSurface workspace={workspace} renderers={{ 'records.list': RecordsTable }} />
 */
export type CapabilityRenderer<Args = unknown, Structured = unknown> = ComponentType<CapabilityRendererProps<Args, Structured>>;

/**
 * Renderers by capability name. Each one types its own arguments and result, so the map takes a
 * renderer of any types (the name is what ties a renderer to its capability).
 */
export type CapabilityRenderers = Readonly<Record<string, CapabilityRenderer<any, any> | undefined>>;

/** A renderer of any argument and result types, as the map holds them. */
export type AnyCapabilityRenderer = CapabilityRenderer<any, any>;
