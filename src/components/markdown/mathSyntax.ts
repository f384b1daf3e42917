/// <reference types="micromark-extension-math" />
// (remark-math's syntax: its token types, `mathText` and the rest, which this file's construct makes too.)
import remarkMath from 'remark-math';
import type { Processor } from 'unified';
import type { Code, Construct, Effects, State, Token, TokenizeContext } from 'micromark-util-types';

const DOLLAR = 36;
const BACKSLASH = 92;
/** Space, tab and the line endings micromark hands a tokenizer (its virtual space and CR/LF codes are negative). */
const isSpace = (code: Code) => code === null || code < 0 || code === 32 || code === 9;
const isDigit = (code: Code) => code !== null && code >= 48 && code <= 57;
const isLineEnding = (code: Code) => code === -5 || code === -4 || code === -3;

/**
 * Math in markdown: `$$ … $$` blocks (a fence of two or more dollars on lines of its own, as
 * remark-math parses them) and inline `$$…$$` (remark-math), and inline `$…$` by Pandoc's
 * rule, so that prices are text: the opening `$` has a non-space character right after it, the
 * closing one has a non-space character right before it and no digit right after it.
 * "It costs $5 and $10" is text; "$x^2$", "$a + b$" and "$5$" are math. remark-math's own
 * single-dollar rule (any two dollars on a line) would make "$5 and $" a formula, so it is
 * registered with `singleDollarTextMath: false` and the single-dollar form is this construct,
 * which makes the same tokens (`mathText`, so mdast-util-math builds the same `inlineMath` node).
 * Part of the parser's chunk (`ParsedBlock`); KaTeX itself loads only when a formula shows.
 */
export function remarkMathParse(this: Processor): void {
  remarkMath.call(this, { singleDollarTextMath: false });
  const data = this.data() as { micromarkExtensions?: unknown[] };
  (data.micromarkExtensions ??= []).push({ text: { [DOLLAR]: singleDollarMath } });
}

const singleDollarMath: Construct = {
  name: 'mathTextSingleDollar',
  tokenize: tokenizeSingleDollar,
  // Not right after another `$` (that one started, or failed to start, a `$$` run), unless escaped.
  previous(this: TokenizeContext, code: Code) {
    return code !== DOLLAR || this.events[this.events.length - 1]?.[1].type === 'characterEscape';
  },
};

function tokenizeSingleDollar(this: TokenizeContext, effects: Effects, ok: State, nok: State): State {
  let before: Code = null; // the character before the current one, inside the formula
  let sequence: Token;
  const start: State = (code) => {
    effects.enter('mathText');
    effects.enter('mathTextSequence');
    effects.consume(code);
    effects.exit('mathTextSequence');
    return afterOpening;
  };
  // `$$` is remark-math's; `$ ` is text (a price, "between $ and €").
  const afterOpening: State = (code) => {
    if (code === DOLLAR || isSpace(code)) return nok(code);
    effects.enter('mathTextData');
    return data(code);
  };
  const data: State = (code) => {
    if (code === null) return nok(code);
    if (isLineEnding(code)) {
      effects.exit('mathTextData');
      effects.enter('lineEnding');
      effects.consume(code);
      effects.exit('lineEnding');
      before = code;
      return afterLineEnding;
    }
    if (code === DOLLAR && !isSpace(before) && before !== BACKSLASH) {
      effects.exit('mathTextData');
      sequence = effects.enter('mathTextSequence');
      effects.consume(code);
      return afterClosing;
    }
    effects.consume(code);
    before = code;
    return data;
  };
  const afterLineEnding: State = (code) => {
    if (code === null || isLineEnding(code)) return nok(code);
    effects.enter('mathTextData');
    return data(code);
  };
  // A digit right after it: not a closing `$` ("$5 and 6$7"), the formula goes on.
  const afterClosing: State = (code) => {
    if (isDigit(code)) {
      sequence.type = 'mathTextData';
      before = DOLLAR;
      return data(code);
    }
    effects.exit('mathTextSequence');
    effects.exit('mathText');
    return ok(code);
  };
  return start;
}
