import katex, { type KatexOptions } from 'katex';
// KaTeX's stylesheet (and through it its fonts) comes with this chunk: Vite splits it with the
// chunk, so a page that shows no formula fetches neither.
import 'katex/dist/katex.min.css';

/**
 * KaTeX for text a model wrote, so nothing in it may reach out of the formula:
 * - `trust: false`: `\href`, `\url`, `\includegraphics`, `\htmlClass`, `\htmlId`, `\htmlStyle`
 *   and `\htmlData` render as their command name (in `errorColor`), never as a link, image or attribute;
 * - `maxExpand` and `maxSize` bound what a macro loop or a huge `\rule` can cost;
 * - `strict: 'ignore'`: LaTeX it accepts but frowns on renders, without console noise;
 * - `throwOnError`: an error is caught by `renderMath`, which the caller shows as the source;
 * - `output: 'htmlAndMathml'`: MathML for screen readers beside the (aria-hidden) HTML.
 */
const OPTIONS: KatexOptions = {
  output: 'htmlAndMathml',
  throwOnError: true,
  trust: false,
  strict: 'ignore',
  maxExpand: 1000,
  maxSize: 50,
  globalGroup: false,
  // A refused command shows its name in this colour (KaTeX's #cc0000 is too faint on the dark theme).
  errorColor: 'var(--cs-danger, #cc0000)',
};

/**
 * The formula as KaTeX's element (`.katex`, in a `.katex-display` for a block), built by
 * KaTeX's DOM renderer on a detached node (no HTML string is ever parsed or set), for the caller
 * to put in its place; or the error when the formula does not parse.
 * @example
 * renderMath('x^2', false); // <span class="katex">…<math>…</math>…</span>
 * renderMath('\\frac{1}{', false); // ParseError
 */
export function renderMath(tex: string, display: boolean): Element | Error {
  try {
    const holder = document.createElement('span');
    katex.render(tex, holder, { ...OPTIONS, displayMode: display, macros: {} });
    return holder.firstElementChild ?? new Error('KaTeX rendered nothing');
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}
