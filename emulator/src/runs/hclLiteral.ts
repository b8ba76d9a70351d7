// Run variables' values must be HCL literals (spec §4.2): `"text"` (quoted), `42`, `true`, `null`, `["a", 1]`,
// `{ name = "x", port = 80 }`. No references, function calls or `${…}` templates. A small recursive-descent
// check is enough; it never needs to evaluate anything.

export function isHclLiteral(text: string): boolean {
  const parser = new LiteralParser(text);
  try {
    parser.skipSpace();
    parser.value();
    parser.skipSpace();
    return parser.atEnd();
  } catch {
    return false;
  }
}

class LiteralParser {
  private pos = 0;
  constructor(private readonly text: string) {}

  atEnd(): boolean {
    return this.pos >= this.text.length;
  }

  skipSpace(): void {
    while (!this.atEnd() && /\s/.test(this.text[this.pos]!)) this.pos++;
  }

  value(): void {
    const char = this.text[this.pos];
    if (char === '"') return this.string();
    if (char === '[') return this.list();
    if (char === '{') return this.object();
    const rest = this.text.slice(this.pos);
    const keyword = /^(true|false|null)(?![\w-])/.exec(rest);
    if (keyword) {
      this.pos += keyword[0].length;
      return;
    }
    const number = /^-?\d+(\.\d+)?([eE][+-]?\d+)?(?![\w.])/.exec(rest);
    if (number) {
      this.pos += number[0].length;
      return;
    }
    throw new Error('not a literal');
  }

  private string(): void {
    this.pos++; // opening quote
    while (!this.atEnd()) {
      const char = this.text[this.pos]!;
      if (char === '\\') {
        this.pos += 2;
        continue;
      }
      if (char === '\n') throw new Error('newline in string');
      // `$${` and `%%{` are HCL's escapes for a literal `${` / `%{`: plain text, not a template.
      if ((char === '$' || char === '%') && this.text[this.pos + 1] === char && this.text[this.pos + 2] === '{') {
        this.pos += 3;
        continue;
      }
      // `${…}` and `%{…}` are templates, i.e. expressions, not literals.
      if ((char === '$' || char === '%') && this.text[this.pos + 1] === '{') throw new Error('template');
      this.pos++;
      if (char === '"') return;
    }
    throw new Error('unterminated string');
  }

  private list(): void {
    this.pos++;
    this.skipSpace();
    while (this.text[this.pos] !== ']') {
      this.value();
      this.skipSpace();
      if (this.text[this.pos] === ',') {
        this.pos++;
        this.skipSpace();
      } else if (this.text[this.pos] !== ']') {
        throw new Error('expected , or ]');
      }
    }
    this.pos++;
  }

  private object(): void {
    this.pos++;
    this.skipSpace();
    while (this.text[this.pos] !== '}') {
      if (this.atEnd()) throw new Error('unterminated object');
      if (this.text[this.pos] === '"') this.string();
      else {
        const key = /^[A-Za-z_][\w-]*/.exec(this.text.slice(this.pos));
        if (!key) throw new Error('bad key');
        this.pos += key[0].length;
      }
      this.skipSpace();
      const separator = this.text[this.pos];
      if (separator !== '=' && separator !== ':') throw new Error('expected = or :');
      this.pos++;
      this.skipSpace();
      this.value();
      this.skipSpace();
      if (this.text[this.pos] === ',') this.pos++;
      this.skipSpace();
    }
    this.pos++;
  }
}
