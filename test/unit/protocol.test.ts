import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as protocol from '../../server/src/protocol';

test('every custom method is namespaced hcpTerraform/ and declared once', () => {
  const methods = Object.values(protocol as Record<string, unknown>)
    .filter((value): value is { method: string } => typeof value === 'object' && value !== null && 'method' in value)
    .map((value) => value.method);
  assert.ok(methods.length > 0);
  for (const method of methods) assert.match(method, /^hcpTerraform\/[a-zA-Z]+(\/[a-zA-Z]+)*$/);
  assert.equal(new Set(methods).size, methods.length);
});
