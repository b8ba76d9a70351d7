// Where a top-level key of a .tfvars.json file can be typed: inside the root object, where JSON expects a key (after
// `{` or `,`), or where a new entry starts after a value that still needs its comma. Reads the text up to the
// cursor with a small JSON scanner (tfvars files are small) that tolerates the half-typed text completion sees.

export interface JsonKeyPosition {
  /** Offsets of what the completion replaces: the key typed so far, with its quotes when it is quoted. */
  start: number;
  end: number;
  /** The key's name typed so far. */
  typed: string;
  /** The cursor is inside a quoted key (the replaced text starts with its quote). */
  quoted: boolean;
  /** A `:` already follows the key (a key being renamed): only the quoted name is replaced. */
  valueFollows: boolean;
  /** Where a comma goes to separate the new entry from the value before it; undefined when one is there. */
  commaAt?: number;
}

/** What the root object expects next. */
type Expecting = 'key' | 'colon' | 'value' | 'comma';

const identifierChar = /[\w-]/;

export function jsonKeyAt(text: string, offset: number): JsonKeyPosition | undefined {
  const containers: string[] = [];
  let expecting: Expecting = 'key';
  let stringStart = -1;
  let expectingAtString: Expecting = 'key';
  let wordStart = -1;
  let expectingAtWord: Expecting = 'key';
  for (let i = 0; i < offset; i++) {
    const char = text[i]!;
    if (stringStart >= 0) {
      if (char === '\\') i++;
      else if (char === '"' || char === '\n') {
        stringStart = -1;
        if (containers.length === 1) expecting = expectingAtString === 'key' || expectingAtString === 'comma' ? 'colon' : 'comma';
      }
      continue;
    }
    const inRoot = containers.length === 1;
    if (identifierChar.test(char)) {
      if (wordStart < 0) {
        wordStart = i;
        expectingAtWord = expecting;
      }
      // A literal where a value goes (a number, true, null); a bare word where a key goes is a key being typed.
      if (inRoot && expecting === 'value') expecting = 'comma';
      continue;
    }
    wordStart = -1;
    if (char === '"') {
      stringStart = i;
      expectingAtString = expecting;
    } else if (char === '{' || char === '[') {
      containers.push(char);
      if (containers.length === 1) expecting = 'key';
    } else if (char === '}' || char === ']') {
      containers.pop();
      if (containers.length === 1) expecting = 'comma';
    } else if (inRoot && char === ':') expecting = 'value';
    else if (inRoot && char === ',') expecting = 'key';
  }
  if (containers.length !== 1 || containers[0] !== '{') return undefined;

  const quoted = stringStart >= 0;
  const start = quoted ? stringStart : wordStart >= 0 ? wordStart : offset;
  const before = quoted ? expectingAtString : wordStart >= 0 ? expectingAtWord : expecting;
  if (before !== 'key' && before !== 'comma') return undefined;
  const typed = text.slice(quoted ? start + 1 : start, offset);
  if (quoted && !/^[\w-]*$/.test(typed)) return undefined;

  const lineEnd = text.indexOf('\n', offset) < 0 ? text.length : text.indexOf('\n', offset);
  const rest = text.slice(offset, lineEnd);
  const closingQuote = quoted ? rest.indexOf('"') : -1;
  const end = offset + (closingQuote >= 0 ? closingQuote + 1 : (/^[\w-]*/.exec(rest)?.[0].length ?? 0));
  const valueFollows = /^\s*:/.test(text.slice(end, end + 80));
  let commaAt: number | undefined;
  if (before === 'comma') {
    // Right after the value before (not on the line being typed): that is where the user would have put it.
    let previous = start - 1;
    while (previous >= 0 && /\s/.test(text[previous]!)) previous--;
    if (previous === start - 1) return undefined; // glued to the value before: not the start of an entry
    commaAt = previous + 1;
  }
  return { start, end, typed, quoted, valueFollows, ...(commaAt !== undefined ? { commaAt } : {}) };
}
