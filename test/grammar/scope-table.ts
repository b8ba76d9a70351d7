// Snapshot-style scope tables: each row names a line, a token on it and one scope that token must carry.
// A row fails when the token is missing or lacks the scope, so every row is a real assertion.
import assert from 'node:assert/strict';
import type { LogToken } from './tokenize-log';

const SUFFIX = '.hcp-terraform-log';

/** `PLAIN` asserts the token carries no scope beyond the grammar's root: the grammar left it alone. */
export const PLAIN = Symbol('plain');

/** [1-based line number, exact token text, scope without the .hcp-terraform-log suffix, or PLAIN]. */
export type ScopeRow = [line: number, token: string, scope: string | typeof PLAIN];

export function assertScopeTable(source: string, lines: LogToken[][], rows: ScopeRow[]): void {
  for (const [lineNumber, text, expected] of rows) {
    const tokens = lines[lineNumber - 1];
    assert.ok(tokens, `${source}:${lineNumber} does not exist`);
    const token = tokens.find((candidate) => candidate.text === text);
    const where = `${source}:${lineNumber} token ${JSON.stringify(text)}`;
    assert.ok(token, `${where} not found; the line tokenized as ${JSON.stringify(tokens.map((t) => t.text))}`);
    if (expected === PLAIN) {
      assert.deepEqual(token.scopes.slice(1), [], `${where} should be unscoped`);
    } else {
      assert.ok(token.scopes.includes(expected + SUFFIX), `${where} lacks ${expected}${SUFFIX}; has ${token.scopes.join(' ')}`);
    }
  }
}

/** The scopes of every token on a line, for checks that a block did (not) carry over to it. */
export function scopesOnLine(lines: LogToken[][], lineNumber: number): string[] {
  return (lines[lineNumber - 1] ?? []).flatMap((token) => token.scopes);
}
