// Go's RE2 patterns (regex, regexall, replace) run by JavaScript's engine: the common syntax both share, with RE2's
// spellings translated (`(?P<name>`, leading flags like `(?i)`, `\A`, `\z`). A pattern using RE2 syntax beyond that
// is not guessed at (NotEvaluable); one that does not compile fails as Go's parser would for the usual slips.
import { NotEvaluable } from './functionArguments';

export interface GoRegex {
  regex: RegExp;
  /** Capture group names in order; '' for an unnamed group. */
  groups: string[];
}

/** Go's syntax error for a pattern that does not compile: its code and the expression it names. */
export class GoRegexSyntaxError extends Error {
  constructor(
    readonly code: string,
    readonly expression: string,
  ) {
    super(`${code}: \`${expression}\``);
  }
}

export function goRegex(pattern: string, global: boolean): GoRegex {
  let source = pattern;
  let flags = global ? 'g' : '';
  const leading = /^\(\?([ims]+)\)/.exec(source);
  if (leading) {
    source = source.slice(leading[0].length);
    flags += leading[1]!;
  }
  // Flags inside the pattern, POSIX classes, Unicode classes and \Q…\E mean other things (or nothing) to JavaScript.
  if (/\(\?[a-zA-Z-]|\[\[:|\\[pPQEC]/.test(source.replace(/\(\?P</g, ''))) throw new NotEvaluable();
  source = source.replace(/\(\?P</g, '(?<').replace(/\\A/g, '^').replace(/\\z/g, '$(?![\\s\\S])');
  let regex: RegExp;
  try {
    regex = new RegExp(source, flags);
  } catch {
    throw syntaxError(pattern);
  }
  const groups = [...source.matchAll(/\\.|\[(?:\\.|[^\]])*\]|\((\?<([^>]+)>|\?)?/g)]
    .filter((match) => match[0].startsWith('(') && match[1] !== '?')
    .map((match) => match[2] ?? '');
  return { regex, groups };
}

/** What Go reports for the slips a JavaScript compile error stands for: an unclosed group or class. */
function syntaxError(pattern: string): Error {
  let depth = 0;
  let classStart = -1;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (classStart >= 0) {
      if (c === ']' && i > classStart + 1) classStart = -1;
    } else if (c === '[') classStart = i;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
  }
  if (classStart >= 0) return new GoRegexSyntaxError('missing closing ]', pattern.slice(classStart));
  if (depth > 0) return new GoRegexSyntaxError('missing closing )', pattern);
  if (depth < 0) return new GoRegexSyntaxError('unexpected )', pattern);
  return new NotEvaluable();
}
