// Every `hcpTerraform.*` context key that package.json's when clauses read must be set by the client: a key nothing
// sets is never true, and what it guards silently disappears (Queue Plan… and Plan Local Changes never reached the
// palette while `hcpTerraform.linkedFolder` was set nowhere).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';

const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { contributes: Record<string, unknown> };

/** Every `when` and `enablement` clause anywhere under `contributes`. */
function clauses(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(clauses);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) => ((key === 'when' || key === 'enablement') && typeof inner === 'string' ? [inner] : clauses(inner)));
}

/** View and container ids (`view == hcpTerraform.runs`) share the prefix but are not context keys. */
function viewIds(): Set<string> {
  const contributes = manifest.contributes as { views?: Record<string, Array<{ id: string }>>; viewsContainers?: Record<string, Array<{ id: string }>> };
  const views = Object.values(contributes.views ?? {}).flat();
  const containers = Object.values(contributes.viewsContainers ?? {}).flat();
  return new Set([...views, ...containers].map((entry) => entry.id));
}

function contextKeysRead(): string[] {
  const views = viewIds();
  const keys = clauses(manifest.contributes).flatMap((clause) => clause.match(/\bhcpTerraform\.[A-Za-z0-9_]+/g) ?? []);
  return [...new Set(keys)].filter((key) => !views.has(key)).sort();
}

function clientSources(dir = 'client/src'): Array<{ file: string; text: string }> {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return clientSources(full);
    return entry.name.endsWith('.ts') ? [{ file: full, text: readFileSync(full, 'utf8') }] : [];
  });
}

describe('context keys of package.json', () => {
  test('the when clauses read the keys this test knows of (the scan works)', () => {
    const keys = contextKeysRead();
    assert.ok(keys.includes('hcpTerraform.signedIn'), `keys found: ${keys.join(', ')}`);
    assert.ok(!keys.includes('hcpTerraform.runs'), 'a view id was taken for a context key');
  });

  test('every hcpTerraform.* key a when clause reads is set with setContext in client/src', () => {
    const sources = clientSources();
    // A key is set where its name appears as a string in a file that calls setContext (directly or via a constant).
    const setters = sources.filter((source) => source.text.includes("'setContext'"));
    const unset = contextKeysRead().filter((key) => !setters.some((source) => source.text.includes(`'${key}'`)));
    assert.deepEqual(unset, [], `context keys read by package.json but set nowhere in client/src: ${unset.join(', ')}`);
  });
});
