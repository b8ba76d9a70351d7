// Whether the end of a line's prefix is code, for completion that reads only the cursor's line: `var.` typed in a
// comment (`# var.`) or in the literal part of a quoted string (`"var.`) is text, not a reference, and completing
// it there only got in the way. Inside `${ … }` or `%{ … }` of a string it is code again. What starts on an earlier
// line (a heredoc, a /* comment */ over several lines) is not seen: such a line is taken as code, as before.

type Frame = 'string' | 'interpolation' | 'brace';

export function endsInCode(prefix: string): boolean {
  const stack: Frame[] = [];
  const top = () => stack[stack.length - 1];
  for (let index = 0; index < prefix.length; index++) {
    const char = prefix[index];
    const next = prefix[index + 1];
    if (top() === 'string') {
      if (char === '\\') index++; // an escaped character, `\"` included
      else if (char === '"') stack.pop();
      else if ((char === '$' || char === '%') && next === '$' && prefix[index + 2] === '{') index += 2; // `$${` is a literal `${`
      else if ((char === '$' || char === '%') && next === '{') {
        stack.push('interpolation');
        index++;
      }
      continue;
    }
    if (char === '"') stack.push('string');
    else if (char === '#' || (char === '/' && next === '/')) return false; // the rest of the line is a comment
    else if (char === '/' && next === '*') {
      const end = prefix.indexOf('*/', index + 2);
      if (end < 0) return false;
      index = end + 1;
    } else if (char === '{') stack.push('brace');
    else if (char === '}' && stack.length > 0) stack.pop(); // closes a brace, or an interpolation back into its string
  }
  return top() !== 'string';
}
