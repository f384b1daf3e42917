/**
 * The value a JSON text the model is still writing holds so far (a tool call's arguments as they
 * stream): objects and arrays left open are closed, a string cut off ends where it is, and a key
 * or literal not yet whole is left out (`{"stage": "le` → `{ stage: 'le' }`, `{"a": tru` → `{}`).
 * A number at the very end is taken as written so far. Text that is not JSON (or not yet any
 * value) gives `undefined`; complete JSON gives what `JSON.parse` gives.
 * @example
 * parsePartialJson('{"records": [{"name": "Ada"}, {"na'); // { records: [{ name: 'Ada' }, {}] }
 */
export function parsePartialJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // Not whole yet (or not JSON): read what is there.
  }
  const reader = new PartialReader(text);
  try {
    const value = reader.value();
    reader.space();
    return reader.atEnd() ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The text ended inside a value that cannot be shown in part (a key, `tru`, a lone `-`). */
class Incomplete extends Error {}

class PartialReader {
  private i = 0;
  constructor(private readonly s: string) {}

  atEnd(): boolean {
    return this.i >= this.s.length;
  }

  space(): void {
    while (this.i < this.s.length && ' \t\n\r'.includes(this.s[this.i]!)) this.i++;
  }

  value(): unknown {
    this.space();
    if (this.atEnd()) throw new Incomplete();
    const c = this.s[this.i]!;
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string(true);
    if (c === '-' || (c >= '0' && c <= '9')) return this.number();
    return this.literal();
  }

  /** What a container holds when the text ended inside its next value: all of the text is read. */
  private cut<T>(out: T): T {
    this.i = this.s.length;
    return out;
  }

  private object(): Record<string, unknown> {
    this.i++;
    const out: Record<string, unknown> = {};
    for (;;) {
      this.space();
      if (this.atEnd()) return out;
      if (this.s[this.i] === '}') {
        this.i++;
        return out;
      }
      if (this.s[this.i] !== '"') throw new SyntaxError('a key');
      let key: string;
      try {
        key = this.string(false);
      } catch (error) {
        if (error instanceof Incomplete) return this.cut(out);
        throw error;
      }
      this.space();
      if (this.atEnd()) return out;
      if (this.s[this.i++] !== ':') throw new SyntaxError('a colon');
      try {
        const value = this.value();
        Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      } catch (error) {
        if (error instanceof Incomplete) return this.cut(out);
        throw error;
      }
      this.space();
      if (this.atEnd()) return out;
      const next = this.s[this.i++];
      if (next === '}') return out;
      if (next !== ',') throw new SyntaxError('a comma');
    }
  }

  private array(): unknown[] {
    this.i++;
    const out: unknown[] = [];
    for (;;) {
      this.space();
      if (this.atEnd()) return out;
      if (this.s[this.i] === ']') {
        this.i++;
        return out;
      }
      try {
        out.push(this.value());
      } catch (error) {
        if (error instanceof Incomplete) return this.cut(out);
        throw error;
      }
      this.space();
      if (this.atEnd()) return out;
      const next = this.s[this.i++];
      if (next === ']') return out;
      if (next !== ',') throw new SyntaxError('a comma');
    }
  }

  /** A string; cut off, it is what it holds so far when `partial` (a value), else Incomplete (a key). */
  private string(partial: boolean): string {
    this.i++;
    let out = '';
    while (this.i < this.s.length) {
      const c = this.s[this.i]!;
      if (c === '"') {
        this.i++;
        return out;
      }
      if (c === '\\') {
        const escaped = this.s.slice(this.i, this.i + 6);
        if (escaped.length < 2 || (escaped[1] === 'u' && escaped.length < 6)) break; // an escape cut in half
        if (escaped[1] === 'u') {
          out += JSON.parse(`"${escaped}"`) as string;
          this.i += 6;
        } else {
          out += JSON.parse(`"${escaped.slice(0, 2)}"`) as string;
          this.i += 2;
        }
        continue;
      }
      out += c;
      this.i++;
    }
    this.i = this.s.length;
    if (!partial) throw new Incomplete();
    return out;
  }

  private number(): number {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(this.s.slice(this.i));
    const end = this.i + (match?.[0].length ?? 0);
    // Cut in the middle (`-`, `1.`, `2e`, `2e+`): not a number yet.
    if (!match || (/^[.eE+-]+$/.test(this.s.slice(end)) && end < this.s.length)) throw new Incomplete();
    this.i = end;
    return Number(match[0]);
  }

  private literal(): boolean | null {
    for (const [word, value] of [['true', true], ['false', false], ['null', null]] as const) {
      const here = this.s.slice(this.i, this.i + word.length);
      if (here === word) {
        this.i += word.length;
        return value;
      }
      if (this.i + here.length === this.s.length && word.startsWith(here)) throw new Incomplete();
    }
    throw new SyntaxError('a value');
  }
}
