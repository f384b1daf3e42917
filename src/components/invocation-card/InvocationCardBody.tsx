import { Component, memo, useContext, type ComponentPropsWithRef, type ErrorInfo, type ReactNode } from 'react';
import type { InvocationRow } from '../../runtime/fold';
import { parsePartialJson } from '../../runtime/partialJson';
import { InvocationCardApp } from './InvocationCardApp';
import { InvocationCardDefaultsContext, useInvocationCard } from './context';
import { InvocationCardMedia } from './InvocationCardMedia';
import { InvocationCardOutput } from './InvocationCardOutput';
import { InvocationCardProgress } from './InvocationCardProgress';
import { InvocationCardResult } from './InvocationCardResult';
import { rendererOf } from './renderers';
import type { AnyCapabilityRenderer, CapabilityRenderer, CapabilityRendererProps } from './rendererTypes';
import { useMessages } from '../messages/context';

export interface InvocationCardBodyProps extends Omit<ComponentPropsWithRef<'div'>, 'children'> {
  /** The card's usual body, shown when the capability has no renderer and when its renderer fails. @default progress, output, result, media and app view */
  children?: ReactNode;
  /** This card's renderer, instead of the one `InvocationCard.Defaults` (or `<ChatSurface renderers>`) has for its capability; `null` for none. */
  renderer?: AnyCapabilityRenderer | null;
}

/**
 * The card's body: the host's component for this capability when it has one (`renderers` on
 * `<ChatSurface>` or `InvocationCard.Defaults`), in a `data-part="invocation-card-body"` frame;
 * otherwise the usual parts, exactly as before. A renderer that throws is caught: the usual parts
 * show instead, under a short note, and the error is logged; it is tried again when the state
 * changes (running → done). `data-renderer` is `shown` or `failed`.
 * @example
 * <InvocationCard.Body />
 */
export function InvocationCardBody({ children, renderer, ...props }: InvocationCardBodyProps) {
  const { row } = useInvocationCard('Body');
  const { renderers } = useContext(InvocationCardDefaultsContext);
  const usual = children ?? <UsualBody />;
  const m = useMessages().card;
  const Renderer: CapabilityRenderer | undefined = renderer === undefined ? rendererOf(renderers, row.capability) : (renderer ?? undefined);
  if (!Renderer) return <>{usual}</>;
  return (
    <RendererBoundary row={row} usual={usual} frame={props} note={m.rendererFailed}>
      <RendererView Renderer={Renderer} row={row} />
    </RendererBoundary>
  );
}
InvocationCardBody.displayName = 'InvocationCard.Body';

/** The body the card has always had. */
function UsualBody() {
  return (
    <>
      <InvocationCardProgress />
      <InvocationCardOutput />
      <InvocationCardResult />
      <InvocationCardMedia />
      <InvocationCardApp />
    </>
  );
}

/** The props a renderer gets for a row (while the model writes the call, its arguments as far as written). */
export function rendererProps(row: InvocationRow): CapabilityRendererProps {
  const writing = row.argsText !== undefined;
  return {
    args: writing ? parsePartialJson(row.argsText!) : row.args,
    writing,
    ...(row.result ? { result: { ...row.result, structured: row.result.structuredContent } } : {}),
    state: row.state,
    ...(row.progress ? { progress: row.progress } : {}),
    output: row.output,
    ...(row.error ? { error: row.error } : {}),
    row,
  };
}

/** The host's component, rendered again only when its row (or the component) changes. */
const RendererView = memo(function RendererView({ Renderer, row }: { Renderer: CapabilityRenderer; row: InvocationRow }) {
  return <Renderer {...rendererProps(row)} />;
});

interface BoundaryProps {
  row: InvocationRow;
  /** Said above the usual body when the host's component threw. */
  note: string;
  usual: ReactNode;
  frame: Omit<ComponentPropsWithRef<'div'>, 'children'>;
  children: ReactNode;
}

interface BoundaryState {
  failed: boolean;
  /** The row's state at the last render: a failure is tried again once it moves on. */
  seen: InvocationRow['state'];
  failedIn: InvocationRow['state'] | null;
}

/** Keeps a throwing renderer from breaking the transcript: the usual body instead, with a note. */
class RendererBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { failed: false, seen: this.props.row.state, failedIn: null };

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    if (!state.failed) return state.seen === props.row.state ? null : { seen: props.row.state };
    // Just failed: remember in which state; tried again once the row is in another one.
    if (state.failedIn === null) return { failedIn: state.seen };
    return props.row.state === state.failedIn ? null : { failed: false, failedIn: null, seen: props.row.state };
  }

  static getDerivedStateFromError(): Partial<BoundaryState> {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    const { row } = this.props;
    console.error(`chatsurface: the renderer for "${row.capability}" (invocation ${row.id}) threw; the card shows its usual body.`, error, info.componentStack ?? '');
  }

  override render() {
    const { usual, frame, children, row, note } = this.props;
    const failed = this.state.failed;
    return (
      <div {...frame} data-part="invocation-card-body" data-capability={row.capability} data-renderer={failed ? 'failed' : 'shown'}>
        {failed ? (
          <>
            <p data-part="invocation-card-renderer-failed">{note}</p>
            {usual}
          </>
        ) : (
          children
        )}
      </div>
    );
  }
}
