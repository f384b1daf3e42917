import type { ComponentPropsWithRef } from 'react';
import type { CapabilityResult } from '../../runtime/envelope';
import { resultText } from '../../runtime/results';
import { MarkdownLink } from '../markdown/MarkdownLink';
import { safeUrl } from '../markdown/safeUrl';
import { useInvocationCard } from './context';
import { fieldLabel, plainValue, useValueWords } from './plainWords';
import { useMessages } from '../messages/context';
import { useScrollCue } from './useScrollCue';

export interface InvocationCardResultProps extends ComponentPropsWithRef<'div'> {
  /** Most rows, items or fields shown before "and N more". @default 8 */
  limit?: number;
}

/**
 * The result in plain words: one summary sentence, then a table, list or
 * links when `display_hint.kind` asks for them (columns titled in words,
 * Yes/No for booleans). Raw fields and JSON are left to `InvocationCard.Detail`.
 * Hidden until the invocation is done.
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
      {summary ? <p data-part="result-summary">{sentence(summary)}</p> : null}
      <StructuredView result={result} kind={kind} limit={limit} title={row.title} />
    </div>
  );
}
InvocationCardResult.displayName = 'InvocationCard.Result';

type Kind = NonNullable<NonNullable<CapabilityResult['display_hint']>['kind']>;

function StructuredView({ result, kind, limit, title }: { result: CapabilityResult; kind: Kind; limit: number; title: string }) {
  const words = useValueWords();
  const m = useMessages().card;
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
  if (!data || kind === 'json' || kind === 'text') return null;
  const items = firstArray(data);
  if (kind === 'table' && items && items.every(isRecord)) {
    const columns = [...new Set(items.flatMap((item) => Object.keys(item)))].slice(0, 6);
    return <ResultTable items={items} columns={columns} limit={limit} title={title} />;
  }
  if ((kind === 'list' || kind === 'table') && items) {
    return (
      <>
        <ul data-part="result-list">
          {items.slice(0, limit).map((item, i) => (
            <li key={i}>{plainValue(item, '', 80, words)}</li>
          ))}
        </ul>
        <More total={items.length} limit={limit} say={m.moreItems} />
      </>
    );
  }
  return null;
}

function More({ total, limit, say }: { total: number; limit: number; say: (count: number) => string }) {
  return total > limit ? <p data-part="result-more">{say(total - limit)}</p> : null;
}

/** A result's rows as a table, in a region that scrolls sideways when wider than the card (focusable, named, its hidden side faded). */
function ResultTable({ items, columns, limit, title }: { items: Record<string, unknown>[]; columns: string[]; limit: number; title: string }) {
  const cue = useScrollCue<HTMLDivElement>();
  const words = useValueWords();
  const m = useMessages().card;
  return (
    <div ref={cue} data-part="result-table" tabIndex={0} role="group" aria-label={m.resultTable(title)}>
      <table>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {fieldLabel(column)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {items.slice(0, limit).map((item, i) => (
            <tr key={i}>
              {columns.map((column) => (
                <td key={column}>{plainValue(item[column], column, 40, words)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <More total={items.length} limit={limit} say={m.moreRows} />
    </div>
  );
}

/** A summary as a sentence: a capital first, a full stop last. */
function sentence(text: string): string {
  const t = text.trim();
  if (!t) return t;
  const s = t[0]!.toUpperCase() + t.slice(1);
  return /[.!?…:]$/.test(s) ? s : `${s}.`;
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
