import type { Citation, EventOf } from '../events';
import type { Draft } from './draft';
import type { AssistantRow, ReplySource } from './rows';

/**
 * A citation onto its reply's row. The same source, passage and location cited again keeps its
 * number and gains the span; the sources are numbered by the seq of the event that first named
 * them, so every client numbers them alike whatever order the events arrive in. It may come before
 * the row's `message.created` (the row is made then, as a delta does); the same event twice
 * (a replay) adds nothing.
 */
export function foldCitation(d: Draft, event: EventOf<'message.cited'>): void {
  const i = d.find(event.message_id, 'assistant');
  const prior = d.row(i, 'assistant');
  const row: AssistantRow = prior ? { ...prior } : { kind: 'assistant', id: event.message_id, text: '', status: 'streaming' };
  row.citations = withCitation(row.citations ?? [], event.citation, event.seq);
  d.put(i, row);
}

/** The sources with the citation added: a new source in seq order, or a known one with its span added. */
export function withCitation(sources: readonly ReplySource[], citation: Citation, seq: number): readonly ReplySource[] {
  const key = sourceKey(citation);
  const at = sources.findIndex((s) => sourceKey(s) === key);
  const range = citation.range && citation.range.end >= citation.range.start ? citation.range : undefined;
  if (at >= 0) {
    const known = sources[at]!;
    const hasRange = !range || known.ranges.some((r) => r.start === range.start && r.end === range.end);
    if (hasRange && known.seq <= seq) return sources;
    const next = sources.slice();
    next[at] = { ...known, ranges: hasRange ? known.ranges : [...known.ranges, range!].sort((a, b) => a.start - b.start), seq: Math.min(known.seq, seq) };
    return renumber(next);
  }
  const added: ReplySource = {
    n: 0,
    source: citation.source,
    cited_text: citation.cited_text,
    ...(citation.location ? { location: citation.location } : {}),
    ranges: range ? [range] : [],
    seq,
  };
  return renumber([...sources, added]);
}

/** What makes two citations one source: the same source, passage and location. */
function sourceKey(c: Pick<Citation, 'source' | 'cited_text' | 'location'>): string {
  const { kind, title, url, index } = c.source;
  const l = c.location;
  return JSON.stringify([kind, title ?? null, url ?? null, index ?? null, c.cited_text, l ? [l.unit, l.start, l.end] : null]);
}

/** Numbers from 1 by first seq (stable: sources named by one event keep their arrival order). */
function renumber(sources: ReplySource[]): ReplySource[] {
  const sorted = sources.every((s, i) => i === 0 || sources[i - 1]!.seq <= s.seq) ? sources : sources.slice().sort((a, b) => a.seq - b.seq);
  return sorted.map((s, i) => (s.n === i + 1 ? s : { ...s, n: i + 1 }));
}
