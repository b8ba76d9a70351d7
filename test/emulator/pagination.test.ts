import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { ApiError } from '../../emulator/src/http/errors';
import { paginate, readPage } from '../../emulator/src/http/pagination';
import { startCore, type CoreHarness } from './core-harness';

const items = Array.from({ length: 45 }, (_, i) => i + 1);
const url = new URL('http://h/api/v2/things?search%5Bname%5D=x');

describe('pagination helpers (notes §1.6)', () => {
  test('defaults to page 1 of 20', () => {
    assert.deepEqual(readPage(new URLSearchParams()), { number: 1, size: 20 });
  });

  test('page[size] above 100, zero or not a number is a 422 naming the parameter', () => {
    for (const size of ['101', '0', 'ten', '-1']) {
      assert.throws(
        () => readPage(new URLSearchParams({ 'page[size]': size })),
        (error: unknown) => error instanceof ApiError && error.status === 422 && error.source?.parameter === 'page[size]' && /between 1 and 100/.test(error.detail ?? ''),
        size,
      );
    }
    assert.throws(() => readPage(new URLSearchParams({ 'page[number]': '0' })), (e: unknown) => e instanceof ApiError && e.status === 422);
    // Past 2^53 the number is not exact any more: 422 like any other bad number, never Infinity or null in links.
    assert.throws(() => readPage(new URLSearchParams({ 'page[number]': '99999999999999999999' })), (e: unknown) => e instanceof ApiError && e.status === 422);
    assert.equal(readPage(new URLSearchParams({ 'page[number]': '9007199254740991' })).number, 9007199254740991);
    assert.deepEqual(readPage(new URLSearchParams({ 'page[size]': '100' })), { number: 1, size: 100 });
  });

  test('meta and links of a middle page', () => {
    const page = paginate(items, { number: 2, size: 20 }, { url });
    assert.deepEqual(page.items, items.slice(20, 40));
    assert.deepEqual(page.meta.pagination, { 'current-page': 2, 'page-size': 20, 'prev-page': 1, 'next-page': 3, 'total-pages': 3, 'total-count': 45 });
    assert.equal(page.links.self, 'http://h/api/v2/things?search%5Bname%5D=x&page%5Bnumber%5D=2&page%5Bsize%5D=20');
    assert.equal(page.links.first, 'http://h/api/v2/things?search%5Bname%5D=x&page%5Bnumber%5D=1&page%5Bsize%5D=20');
    assert.equal(page.links.prev, page.links.first);
    assert.match(page.links.next!, /page%5Bnumber%5D=3/);
    assert.match(page.links.last!, /page%5Bnumber%5D=3/);
  });

  test('first and last pages have null prev/next; an empty list has one empty page', () => {
    const first = paginate(items, { number: 1, size: 20 }, { url });
    assert.equal(first.meta.pagination['prev-page'], null);
    assert.equal(first.links.prev, null);
    const last = paginate(items, { number: 3, size: 20 }, { url });
    assert.equal(last.items.length, 5);
    assert.equal(last.meta.pagination['next-page'], null);
    assert.equal(last.links.next, null);
    const empty = paginate([], { number: 1, size: 20 }, { url });
    assert.deepEqual(empty.meta.pagination, { 'current-page': 1, 'page-size': 20, 'prev-page': null, 'next-page': null, 'total-pages': 1, 'total-count': 0 });
  });

  test('a page past the end is an empty success', () => {
    const beyond = paginate(items, { number: 9, size: 20 }, { url });
    assert.deepEqual(beyond.items, []);
    assert.equal(beyond.meta.pagination['next-page'], null);
  });

  test('without totals: no total-count/total-pages and only self/prev/next links', () => {
    const page = paginate(items, { number: 1, size: 20 }, { url, withoutTotals: true });
    assert.deepEqual(Object.keys(page.links).sort(), ['next', 'prev', 'self']);
    assert.equal('total-count' in page.meta.pagination, false);
    assert.equal('total-pages' in page.meta.pagination, false);
  });
});

describe('pagination over HTTP', () => {
  let h: CoreHarness;
  before(async () => {
    h = await startCore();
  });
  after(() => h.close());
  beforeEach(() => h.emulator.control.advance(1_000));

  test('percent-encoded bracket names work like plain ones', async () => {
    const encoded = await h.api('GET', '/organizations/acme-demo/workspaces?page%5Bsize%5D=2&page%5Bnumber%5D=2');
    const plain = await h.api('GET', '/organizations/acme-demo/workspaces?page[size]=2&page[number]=2');
    assert.equal(encoded.status, 200);
    assert.deepEqual(encoded.body.meta, plain.body.meta);
    assert.deepEqual(encoded.body.meta.pagination, { 'current-page': 2, 'page-size': 2, 'prev-page': 1, 'next-page': 3, 'total-pages': 3, 'total-count': 5 });
    assert.equal(encoded.body.data.length, 2);
    assert.ok(encoded.body.links.next.startsWith(`${h.emulator.url}/api/v2/organizations/acme-demo/workspaces?`), 'list links are absolute');
  });

  test('page[size]=101 is a 422 with the documented detail', async () => {
    const result = await h.api('GET', '/organizations/acme-demo/workspaces?page%5Bsize%5D=101');
    assert.equal(result.status, 422);
    assert.equal(result.body.errors[0].detail, 'page[size] must be between 1 and 100');
  });

  test('following next links visits every workspace once', async () => {
    const names: string[] = [];
    let next: string | null = `${h.emulator.url}/api/v2/organizations/acme-demo/workspaces?page%5Bsize%5D=2`;
    for (let guard = 0; next && guard < 10; guard++) {
      const page: { body: any } = await h.api('GET', next);
      names.push(...page.body.data.map((w: any) => w.attributes.name));
      next = page.body.links.next;
    }
    assert.deepEqual(names, ['demo-app', 'legacy-batch', 'prod-network', 'sandbox', 'staging-api']);
  });
});
