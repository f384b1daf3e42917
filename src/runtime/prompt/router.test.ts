import { describe, expect, it } from 'vitest';
import { ROUTE_OPTIONS, ROUTE_QUESTION, routeAnswer, routeIntent } from './router';

describe('routeIntent', () => {
  it.each([
    ['compare the two supplier quotes', 'compare'],
    ['find the invoice from March', 'find'],
    ['what is our churn this quarter?', 'what is'],
    ["what's the status of order 12?", "what's"],
    ['pull the latest numbers from the CRM', 'pull'],
    ['summarize this thread', 'summarize'],
    ['summarise the call notes', 'summarise'],
    ['list the open tickets right now', 'right now'],
  ])('reads "%s" as one-shot (cue: %s)', (text, cue) => {
    const route = routeIntent(text);
    expect(route.kind).toBe('one_shot');
    expect(route.cues).toContain(cue);
  });

  it.each([
    ['watch the competitor pricing page', 'watch'],
    ['track new signups', 'track'],
    ['notify me when a new lead arrives', 'notify me when'],
    ['keep an eye on the error rate', 'keep an eye'],
    ['see how our ranking changes over time', 'over time'],
    ['monitor the queue length', 'monitor'],
    ['let me know if the build breaks', 'let me know if'],
  ])('reads "%s" as standing (cue: %s)', (text, cue) => {
    const route = routeIntent(text);
    expect(route.kind).toBe('standing');
    expect(route.cues).toContain(cue);
    expect(route.cadence).toBeUndefined();
  });

  it('keeps the cadence of a repeating request, even with a one-shot verb in it', () => {
    expect(routeIntent('summarize the new tickets every week')).toEqual({ kind: 'standing', cadence: 'every week', cues: ['every week'] });
    expect(routeIntent('send me the sales figures daily')).toMatchObject({ kind: 'standing', cadence: 'daily' });
    expect(routeIntent('check the feed every 2 hours')).toMatchObject({ kind: 'standing', cadence: 'every 2 hours' });
  });

  it('finds the request ambiguous when it asks for something once and for watching it', () => {
    expect(routeIntent('find the cheapest supplier and track it')).toEqual({ kind: 'ambiguous', cues: ['track', 'find'] });
    expect(routeIntent('watch the price right now')).toEqual({ kind: 'ambiguous', cues: ['watch', 'right now'] });
    expect(routeIntent('tell me the queue length right now and every day')).toMatchObject({ kind: 'ambiguous', cues: ['every day', 'right now'] });
  });

  it('does not read "track down" as tracking, nor a plain request as standing', () => {
    expect(routeIntent('track down the bug in the importer').kind).toBe('one_shot');
    expect(routeIntent('add note call Ada')).toEqual({ kind: 'one_shot', cues: [] });
    expect(routeIntent('').kind).toBe('one_shot');
  });
});

describe('the router question', () => {
  it('is one question with two quick answers', () => {
    expect(ROUTE_QUESTION).toBe('Just this once, or should I keep watching it for you?');
    expect(ROUTE_OPTIONS.map((o) => o.label)).toEqual(['Just this once', 'Keep watching']);
  });

  it('reads the quick answers and typed ones', () => {
    expect(routeAnswer(ROUTE_OPTIONS[0]!.value).kind).toBe('one_shot');
    expect(routeAnswer(ROUTE_OPTIONS[1]!.value).kind).toBe('standing');
    expect(routeAnswer('just now, thanks').kind).toBe('one_shot');
    expect(routeAnswer('keep watching it every morning')).toMatchObject({ kind: 'standing', cadence: 'every morning' });
  });
});
