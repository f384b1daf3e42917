import type { MermaidModule } from './loadMermaid';

/** A drawn diagram: mermaid's SVG and the size it was drawn at (its viewBox), in CSS px. */
export interface DrawnDiagram {
  svg: string;
  width: number;
  height: number;
}

let drawn = 0;
/** One drawing at a time: mermaid's configuration (the theme) is global to the page. */
let queue: Promise<unknown> = Promise.resolve();

/**
 * Draws a diagram's source with mermaid, `securityLevel: 'strict'` (its text is escaped, its
 * click handlers and links to script refused), into an SVG string that is only ever shown inside
 * a sandboxed frame (`diagramDocument`). Throws mermaid's own error when the source is not a diagram.
 */
export function drawDiagram(mermaid: MermaidModule, source: string, dark: boolean): Promise<DrawnDiagram> {
  const next = queue.then(async () => {
    mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', suppressErrorRendering: true, theme: dark ? 'dark' : 'default' });
    const { svg } = await mermaid.render(`cs-diagram-${++drawn}`, source);
    return { svg, ...sizeOf(svg) };
  });
  queue = next.catch(() => {});
  return next;
}

/** The SVG's size from its viewBox (mermaid always writes one); 16:9 at 640 px when it has none. */
export function sizeOf(svg: string): { width: number; height: number } {
  const box = /viewBox="\s*[-\d.]+[\s,]+[-\d.]+[\s,]+([\d.]+)[\s,]+([\d.]+)\s*"/.exec(svg);
  const width = box ? Number(box[1]) : 0;
  const height = box ? Number(box[2]) : 0;
  return width > 0 && height > 0 ? { width, height } : { width: 640, height: 360 };
}

/**
 * The frame's whole document: the SVG on a plain page whose policy loads nothing (no script, no
 * network: `default-src 'none'`, inline styles only, as mermaid writes them). The frame is
 * sandboxed besides (no scripts, an opaque origin), so nothing in a diagram's text can reach the page.
 */
export function diagramDocument(svg: string, dark: boolean): string {
  const background = dark ? '#1f2020' : '#ffffff';
  return [
    '<!doctype html><html><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:">`,
    `<meta name="color-scheme" content="${dark ? 'dark' : 'light'}">`,
    `<style>html,body{margin:0;background:${background}}svg{display:block;width:100%;height:auto;max-width:100%}</style>`,
    `</head><body>${svg}</body></html>`,
  ].join('');
}
