import type { QuestionOption, Route } from '../model';

/**
 * The intent router: is the user asking for something once ("compare",
 * "find", "what is", "pull", "summarize", "right now") or for something that
 * goes on ("watch", "track", "notify me when", "every week", "keep an eye",
 * "over time")? Standing requests go to the host, which owns trackers; a
 * request that says both gets exactly one question.
 */

/** How often: the strongest standing cue, kept as the cadence. */
const CADENCE =
  /\b(every\s+(?:other\s+)?(?:\d+\s+)?(?:minute|hour|day|morning|evening|night|week|weekday|month|quarter|year|monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?|(?:hourly|daily|nightly|weekly|fortnightly|monthly|quarterly|yearly|annually))\b/i;

const STANDING: readonly RegExp[] = [
  /\bkeep (?:an eye|watching|tracking|monitoring|checking|tabs)\b[^.?!]*/i,
  /\b(?:notify|alert|ping|tell|remind) me (?:when|if|whenever|as soon as)\b/i,
  /\blet me know (?:when|if|whenever|as soon as)\b/i,
  /\bover time\b/i,
  /\bfrom now on\b/i,
  /\bwhenever\b/i,
  /\bwatch(?:es|ing)?\b/i,
  /\btrack(?:s|ing)?\b(?!\s+down\b)/i,
  /\bmonitor(?:s|ing)?\b/i,
];

const ONE_SHOT_VERB: readonly RegExp[] = [
  /\bcompare\b/i,
  /\bfind\b/i,
  /\bwhat(?:'s| is| are| was| were)\b/i,
  /\bpull\b/i,
  /\bsummari[sz]e\b/i,
  /\blook up\b/i,
  /\bshow me\b/i,
];

/** Asking how, or for advice: answered now. */
const ADVICE = /\b(?:advice|advise|recommend(?:ation)?s?|suggestions?|tips?|best way|how (?:do|can|should|could) (?:i|we)|should (?:i|we))\b/i;

/** A standing request said outright, whatever else the message holds. */
const EXPLICIT_STANDING = /\b(?:(?:notify|alert|ping|remind) me\b|let me know (?:when|if|whenever|as soon as)|keep (?:an eye|watching|monitoring|checking)|from now on)\b/i;

/** Beyond this many words a message is a paste or an essay, not a standing request. */
const LONG_WORDS = 60;

/** Words that pin the request to now; they contradict a standing cue. */
const ONE_SHOT_TIME = /\b(right now|just (?:this )?once|one[- ]off|this once|at the moment|currently)\b/i;

/**
 * Classifies a message.
 * @example
 * routeIntent('notify me when a new lead arrives'); // { kind: 'standing', cues: ['notify me when'] }
 * routeIntent('compare the two quotes');            // { kind: 'one_shot', cues: ['compare'] }
 * routeIntent('find the price and track it');       // { kind: 'ambiguous', cues: ['track', 'find'] }
 */
export function routeIntent(text: string): Route {
  // Asking for advice about tracking is a question now, not a request to watch.
  const advice = text.match(ADVICE)?.[0];
  if (advice && !EXPLICIT_STANDING.test(text)) return { kind: 'one_shot', cues: [lower(advice)] };
  // A long paste that mentions "quarterly" or "every week" in passing is not a request to repeat.
  if (text.trim().split(/\s+/).length > LONG_WORDS && !EXPLICIT_STANDING.test(text)) return { kind: 'one_shot', cues: [] };
  const cadence = text.match(CADENCE)?.[0];
  const standing = STANDING.map((re) => text.match(re)?.[0]).filter((m): m is string => !!m).map(trimCue);
  const verbs = ONE_SHOT_VERB.map((re) => text.match(re)?.[0]).filter((m): m is string => !!m).map(lower);
  const now = text.match(ONE_SHOT_TIME)?.[0];
  const standingCues = cadence ? [lower(cadence), ...standing] : standing;

  if (now && standingCues.length) return { kind: 'ambiguous', cues: [...standingCues, lower(now)] };
  if (now) return { kind: 'one_shot', cues: [lower(now), ...verbs] };
  if (cadence) return { kind: 'standing', cadence: lower(cadence), cues: standingCues };
  if (standing.length && verbs.length) return { kind: 'ambiguous', cues: [...standing, ...verbs] };
  if (standing.length) return { kind: 'standing', cues: standing };
  return { kind: 'one_shot', cues: verbs };
}

/** The one question asked when the router cannot tell. */
export const ROUTE_QUESTION = 'Just this once, or should I keep watching it for you?';

/** Its quick answers; `value` is what `routeAnswer` reads. */
export const ROUTE_OPTIONS: readonly QuestionOption[] = [
  { label: 'Just this once', value: 'once' },
  { label: 'Keep watching', value: 'keep watching' },
];

/**
 * The route an answer to `ROUTE_QUESTION` chooses: a typed answer counts as
 * standing when it asks to keep going, otherwise as once.
 */
export function routeAnswer(answer: string): Route {
  const text = answer.trim();
  if (/\b(keep|watch|track|monitor|ongoing|standing|every|always|notify|alert)\b/i.test(text)) {
    const cadence = text.match(CADENCE)?.[0];
    return { kind: 'standing', ...(cadence ? { cadence: lower(cadence) } : {}), cues: [lower(text)] };
  }
  return { kind: 'one_shot', cues: [lower(text) || 'once'] };
}

function lower(s: string): string {
  return s.toLowerCase().replace(/\s+/g, ' ').trim();
}

/** A cue as the user wrote it, without a long tail ("keep an eye on the …" → "keep an eye"). */
function trimCue(s: string): string {
  const m = lower(s).match(/^keep (an eye|watching|tracking|monitoring|checking|tabs)/);
  return m ? m[0] : lower(s);
}
