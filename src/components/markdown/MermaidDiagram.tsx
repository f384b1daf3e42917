import { useContext, useEffect, useId, useRef, useState } from 'react';
import type { Element } from 'hast';
import { MissingPeerError } from '../../runtime/peers';
import { useMessages } from '../messages/context';
import { CodeBlock, textOf } from './CodeBlock';
import { fenceIsOpen, LiveSource } from './codeFence';
import { diagramDocument, drawDiagram, type DrawnDiagram } from './diagramDocument';
import { loadMermaid } from './loadMermaid';

export interface MermaidDiagramProps {
  /** The `<pre>` element of the parsed markdown (a ```mermaid fence). */
  node: Element | undefined;
}

/** Whether a parsed `<pre>` is a ```mermaid fence. */
export function isMermaidFence(node: Element | undefined): boolean {
  const code = node?.children.find((child): child is Element => child.type === 'element' && child.tagName === 'code');
  const className = code?.properties.className;
  return Array.isArray(className) && className.map(String).includes('language-mermaid');
}

type Drawing = { state: 'drawing' } | { state: 'drawn'; diagram: DrawnDiagram; dark: boolean } | { state: 'failed'; reason: string | null };

/**
 * A ```mermaid fence, drawn. While the reply still writes it (its fence open) its source shows as
 * code (`data-state="writing"`); once closed, `mermaid` (an optional peer, fetched on first use)
 * draws it with `securityLevel: 'strict'` and the SVG shows in a frame sandboxed without scripts
 * and with a policy that loads nothing (`data-state="drawn"`), sized to the diagram, named
 * "Diagram", with a "Show source" toggle. When mermaid is not installed or the source is not a
 * diagram, the source stays as code with a plain note (`data-state="failed"`).
 * @example
 * <MermaidDiagram node={preElement} />
 */
export function MermaidDiagram({ node }: MermaidDiagramProps) {
  const code = node?.children.find((child): child is Element => child.type === 'element' && child.tagName === 'code');
  const source = code ? textOf(code).replace(/\n$/, '') : '';
  const live = useContext(LiveSource);
  const start = node?.position?.start.offset;
  const end = node?.position?.end.offset;
  const open = live !== null && (start === undefined || end === undefined || fenceIsOpen(live, start, end));
  const [drawing, setDrawing] = useState<Drawing>({ state: 'drawing' });
  const [showSource, setShowSource] = useState(false);
  const self = useRef<HTMLDivElement>(null);
  const sourceId = useId();
  const m = useMessages().diagram;
  const fetched = useRef(false);

  useEffect(() => {
    if (open) {
      // Fetched (once) while the fence is still being written, so it is there when the fence closes.
      if (!fetched.current) loadMermaid().catch(() => {}); // a failure is said once the fence closes
      fetched.current = true;
      return;
    }
    let current = true;
    const dark = self.current?.closest('[data-chat-surface]')?.getAttribute('data-theme') === 'dark';
    setDrawing({ state: 'drawing' });
    loadMermaid()
      .then((mermaid) => drawDiagram(mermaid, source, dark))
      .then(
        (diagram) => current && setDrawing({ state: 'drawn', diagram, dark }),
        (error: unknown) => current && setDrawing({ state: 'failed', reason: error instanceof MissingPeerError ? null : reasonOf(error) }),
      );
    return () => {
      current = false;
    };
  }, [source, open]);

  const state = open ? 'writing' : drawing.state;
  return (
    <div ref={self} data-part="diagram" data-state={state}>
      {drawing.state === 'drawn' && !open ? (
        <>
          <iframe
            data-part="diagram-frame"
            title={m.name}
            sandbox=""
            srcDoc={diagramDocument(drawing.diagram.svg, drawing.dark)}
            style={{ maxWidth: `${drawing.diagram.width}px`, aspectRatio: `${drawing.diagram.width} / ${drawing.diagram.height}` }}
          />
          <button type="button" data-part="diagram-source-toggle" aria-expanded={showSource} aria-controls={sourceId} onClick={() => setShowSource((shown) => !shown)}>
            {m.showSource}
          </button>
          <div id={sourceId} hidden={!showSource}>
            {showSource ? <CodeBlock node={node} /> : null}
          </div>
        </>
      ) : (
        <>
          <CodeBlock node={node} />
          {state === 'drawing' ? (
            <p role="status" data-part="diagram-note">
              {m.drawing}
            </p>
          ) : state === 'failed' && drawing.state === 'failed' ? (
            <p data-part="diagram-note">{drawing.reason === null ? m.unavailable : m.failed(drawing.reason)}</p>
          ) : null}
        </>
      )}
    </div>
  );
}

/** A drawing error in a few plain words: its first line, without mermaid's parser dump. */
function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const first = message.split('\n').find((line) => line.trim())?.trim() ?? 'unknown error';
  return first.length > 160 ? `${first.slice(0, 159)}…` : first.replace(/[.:]$/, '');
}
