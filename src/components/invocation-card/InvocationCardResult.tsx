import type { ComponentPropsWithRef } from 'react';
import { resultText, type CapabilityResult } from '../../runtime/envelope';
import { formatValue } from '../rows/ArgsSummary';
import { MarkdownLink } from '../markdown/MarkdownLink';
import { safeUrl } from '../markdown/safeUrl';
import { useInvocationCard } from './context';

export interface InvocationCardResultProps extends ComponentPropsWithRef<'div'> {
  /** Most rows, items or fields shown before "and N more". @default 8 */
  limit?: number;
}

/**
 * The result in short: the one-line summary, then the structured content the
 * way `display_hint.kind` asks (`table`, `list`, `json`, `link`, or `text`:
 * a few fields). Hidden until the invocation is done.
 * @example
 * <InvocationCard.Result limit={5} />
 */
export function InvocationCardResult({ limit = 8, ...props }: InvocationCardResultProps) {
  const { row } = useInvocationCard('Result');
  const result = row.result;
  if (row.state !== 'done' || !result) return null;
  const text = resultText(result).trim();
  const summary = result.display_hint?.summary ?? firstLine(text);
  const kind = result.display_hint?.kind ?? 'text';
  return (
    <div {...props} data-part="invocation-card-result" data-kind={kind}>
      {summary ? <p data-part="result-summary">{summary}</p> : null}
      <StructuredView result={result} kind={kind} limit={limit} title={row.title} />
    </div>
  );
}
InvocationCardResult.displayName = 'InvocationCard.Result';

type Kind = NonNullable<NonNullable<CapabilityResult['display_hint']>['kind']>;

function StructuredView({ result, kind, limit, title }: { result: CapabilityResult; kind: Kind; limit: number; title: string }) {
  const data = result.structuredContent;
  if (kind === 'link') {
    const links = linksOf(result);
    return links.length ? (
      <ul data-part="result-links">
        {links.slice(0, limit).map((link) => (
          <li key={link.href}>
            <MarkdownLink href={safeUrl(link.href)}>{link.label}</MarkdownLink>
          </li>
        ))}
      </ul>
    ) : null;
  }
  if (!data) return null;
  if (kind === 'json') {
    return (
      <pre data-part="result-json" tabIndex={0} aria-label={`${title} result`}>
        {JSON.stringify(data, null, 2)}
      </pre>
    );
  }
  const items = firstArray(data);
  if (kind === 'table' && items && items.every(isRecord)) {
    const columns = [...new Set(items.flatMap((item) => Object.keys(item)))].slice(0, 6);
    return (
      <div data-part="result-table" tabIndex={0} role="group" aria-label={`${title} result table`}>
        <table>
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column} scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {items.slice(0, limit).map((item, i) => (
              <tr key={i}>
                {columns.map((column) => (
                  <td key={column}>{formatValue(item[column], 40)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        <More total={items.length} limit={limit} noun="row" />
      </div>
    );
  }
  if ((kind === 'list' || kind === 'table') && items) {
    return (
      <>
        <ul data-part="result-list">
          {items.slice(0, limit).map((item, i) => (
            <li key={i}>{formatValue(item)}</li>
          ))}
        </ul>
        <More total={items.length} limit={limit} noun="item" />
      </>
    );
  }
  const fields = Object.entries(data).filter(([, value]) => value === null || typeof value !== 'object');
  if (fields.length === 0) return null;
  return (
    <dl data-part="result-fields">
      {fields.slice(0, limit).map(([name, value]) => (
        <div key={name}>
          <dt>{name.replace(/[_.-]+/g, ' ')}</dt>
          <dd>{formatValue(value, 60)}</dd>
        </div>
      ))}
    </dl>
  );
}

function More({ total, limit, noun }: { total: number; limit: number; noun: string }) {
  return total > limit ? <p data-part="result-more">and {total - limit} more {noun}{total - limit === 1 ? '' : 's'}</p> : null;
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}

function firstArray(data: Record<string, unknown>): unknown[] | null {
  for (const value of Object.values(data)) if (Array.isArray(value)) return value;
  return null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Links of a result: its `resource_link` blocks, else `url`/`href` fields of its structured content. */
function linksOf(result: CapabilityResult): { href: string; label: string }[] {
  const links = result.content.flatMap((block) => (block.type === 'resource_link' ? [{ href: block.uri, label: block.title ?? block.name }] : []));
  if (links.length) return links;
  const data = result.structuredContent ?? {};
  const href = typeof data.url === 'string' ? data.url : typeof data.href === 'string' ? data.href : null;
  return href ? [{ href, label: typeof data.title === 'string' ? data.title : href }] : [];
}
