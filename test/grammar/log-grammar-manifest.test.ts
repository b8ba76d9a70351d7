// The grammar file must be valid before VS Code will use it: parseable JSON, every include resolvable, every
// regex accepted by oniguruma, and wired to the language through package.json with the same scopeName.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { grammarPath, loadOnigLib, repoRoot, scopeName } from './tokenize-log';

interface GrammarContribution {
  language?: string;
  scopeName?: string;
  path?: string;
}

type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
type JsonObject = { [key: string]: JsonValue };

async function readJson(file: string): Promise<JsonObject> {
  return JSON.parse(await readFile(file, 'utf8')) as JsonObject;
}

/** Every object in the grammar tree, so rules nested in captures and patterns are all checked. */
function allObjects(value: JsonValue): JsonObject[] {
  if (Array.isArray(value)) return value.flatMap(allObjects);
  if (value === null || typeof value !== 'object') return [];
  return [value, ...Object.values(value).flatMap(allObjects)];
}

const REGEX_KEYS = ['match', 'begin', 'end', 'while'];

describe('run-log grammar file', () => {
  test('package.json contributes it for hcp-terraform-log with the same scopeName', async () => {
    const manifest = (await readJson(path.join(repoRoot, 'package.json'))) as {
      contributes?: { grammars?: GrammarContribution[]; languages?: { id: string }[] };
    };
    const contribution = manifest.contributes?.grammars?.find((g) => g.language === 'hcp-terraform-log');
    assert.ok(contribution, 'package.json has no grammar for hcp-terraform-log');
    assert.ok(manifest.contributes?.languages?.some((l) => l.id === 'hcp-terraform-log'), 'the language itself is not contributed');
    assert.equal(contribution.scopeName, scopeName);
    assert.ok(contribution.path, 'the grammar contribution has no path');
    assert.equal(path.resolve(repoRoot, contribution.path), grammarPath);
    const grammar = await readJson(grammarPath);
    assert.equal(grammar.scopeName, contribution.scopeName);
  });

  test('every include points at a repository entry', async () => {
    const grammar = await readJson(grammarPath);
    const repository = grammar.repository as JsonObject;
    const includes = allObjects(grammar)
      .map((rule) => rule.include)
      .filter((include): include is string => typeof include === 'string');
    assert.ok(includes.length > 10);
    for (const include of includes) {
      assert.match(include, /^#/, `only local includes are expected, got ${include}`);
      assert.ok(include.slice(1) in repository, `${include} is not in the repository`);
    }
  });

  test('every regex compiles with oniguruma', async () => {
    const onig = await loadOnigLib();
    const grammar = await readJson(grammarPath);
    const regexes = allObjects(grammar).flatMap((rule) =>
      REGEX_KEYS.map((key) => rule[key]).filter((regex): regex is string => typeof regex === 'string'),
    );
    assert.ok(regexes.length > 30);
    for (const regex of regexes) {
      assert.doesNotThrow(() => onig.createOnigScanner([regex]), `does not compile: ${regex}`);
    }
  });

  test('every scope it assigns ends in .hcp-terraform-log, so themes and tests can target it', async () => {
    const grammar = await readJson(grammarPath);
    // The root's own "name" is the grammar's display name, not a scope.
    const names = allObjects([grammar.patterns, grammar.repository])
      .map((rule) => rule.name)
      .filter((name): name is string => typeof name === 'string');
    assert.ok(names.length > 30);
    for (const name of names) assert.match(name, /^[a-z0-9\-]+(\.[a-z0-9\-]+)*\.hcp-terraform-log$/, name);
  });
});
