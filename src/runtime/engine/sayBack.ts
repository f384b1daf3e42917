import type { Suggestion } from '../anticipation';
import { fieldTitle } from '../issueWords';
import type { CapabilityInfo } from '../registry';
import { closestClause, verbPhrase } from './replies';
import type { SayBack } from './understand';

/**
 * The one sentence for a request the offline model will not act on whole:
 * what it cannot do and the two closest things it can; a restriction it
 * cannot express, with the honest offer ("I can export to CRM, but not only
 * the software ones."); the one detail it needs ("Which file should I
 * import?"); a value out of range, said as the card says it ("Records to
 * enrich must be 50 or less."). Plain words: no argument names, no
 * validation text.
 */
export function sayBackReply(clause: SayBack, suggestions: readonly Suggestion[], capabilities: readonly CapabilityInfo[]): string {
  switch (clause.kind) {
    case 'cannot': {
      const offer = closestClause(clause.closest, suggestions, capabilities);
      // The words are said back when they start with what was asked ("delete Barbara Liskov"), not with "I need …".
      const what = /^(?:i|we|you|it|this|that|there)\b/i.test(clause.phrase.trim()) ? '' : echo(clause.phrase);
      const head = what ? `I can't ${what} here` : "I can't help with that here";
      return offer ? `${head}; I can ${offer}.` : `${head}.`;
    }
    case 'restrict':
      return `I can ${verbPhrase(clause.capability)}, but not ${clause.phrase.replace(/[.?!]+$/, '')}.`;
    case 'missing':
      return missingQuestion(clause.capability, clause.field);
    case 'invalid':
      return invalidSentence(clause);
    default:
      return clause satisfies never;
  }
}

/** The user's words as a clause after "I can't": its first letter lower-cased unless it is a name or an acronym; too long, none. */
function echo(phrase: string): string {
  const p = phrase.trim().replace(/[\s.!?,;:]+$/, '');
  // Only plain words are said back: never a path, an address or markup.
  if (!p || p.length > 80 || !/^[\p{L}\p{N}\s'’,-]+(?:\.[\p{L}]{2,4})?$/u.test(p)) return '';
  const own = p.replace(/\b(?:me|my|mine|I)\b/g, (w) => ({ me: 'you', my: 'your', mine: 'yours', I: 'you' })[w] ?? w);
  return /^[A-Z][a-z]/.test(own) && !/^[A-Z][a-z]+ [A-Z][a-z]+/.test(own) ? own[0]!.toLowerCase() + own.slice(1) : own;
}

type JsonProperty = { type?: unknown; title?: string; description?: string; pattern?: string; enum?: unknown[] };

function property(capability: CapabilityInfo, field: string): JsonProperty {
  return ((capability.inputSchema.properties ?? {}) as Record<string, JsonProperty>)[field] ?? {};
}

/** "Which file should I import? For example, customers.csv." / "What should I search the notes for?" */
function missingQuestion(capability: CapabilityInfo, field: string): string {
  const p = property(capability, field);
  const example = /\be\.g\.\s*"?([\w.-]+?)"?(?=[\s,;)]|\.?$)/.exec(p.description ?? '')?.[1];
  const verb = verbPhrase(capability);
  const free = p.type === 'string' && !p.pattern;
  const label = fieldTitle(field, capability.inputSchema).toLowerCase();
  const question = free ? `What should I ${verb} for?` : p.pattern || p.enum ? `Which ${label} should I ${verb.split(' ')[0]}?` : `What should ${fieldTitle(field, capability.inputSchema)} be?`;
  return example ? `${question} For example, ${example}.` : question;
}

function invalidSentence(clause: Extract<SayBack, { kind: 'invalid' }>): string {
  const label = fieldTitle(clause.field, clause.capability.inputSchema);
  switch (clause.problem) {
    case 'max':
      return `${label} must be ${clause.bound} or less, so I did not ${verbPhrase(clause.capability).split(' ')[0]} anything.`;
    case 'min':
      return `${label} must be ${clause.bound} or more, so I did not ${verbPhrase(clause.capability).split(' ')[0]} anything.`;
    case 'pattern': {
      const description = property(clause.capability, clause.field).description?.trim();
      return `I can't use “${String(clause.value)}” as the ${label.toLowerCase()}${description ? `: ${description.replace(/\.?$/, '.')}` : '.'}`;
    }
    case 'unknown-value':
      return `I don't know ${String(clause.value)}; did you mean ${clause.closest}?`;
    default:
      return clause.problem satisfies never;
  }
}
