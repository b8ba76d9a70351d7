// Pagination: iterate pages/items following meta.pagination, or links.next when the numbers are absent;
// never loop on a page that does not move forward; fetch lazily.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { collectItems, iterateItems, iteratePages } from '../../server/src/api/pagination';
import { runResource, sendJson, startTestServer } from './support/testServer';
import type { TestServer } from './support/testServer';
import { testClient } from './support/clientFactory';

const total = 45;

describe('pagination', () => {
  let server: TestServer;
  let mode: 'numbers' | 'links-only' | 'stuck' = 'numbers';

  before(async () => {
    server = await startTestServer((request, response) => {
      const url = new URL(request.url, 'http://x');
      const page = Number(url.searchParams.get('page[number]') ?? 1);
      const size = Number(url.searchParams.get('page[size]') ?? 20);
      const pages = Math.ceil(total / size);
      const items = Array.from({ length: Math.max(0, Math.min(size, total - (page - 1) * size)) }, (_, i) =>
        runResource(`run-${(page - 1) * size + i + 1}`),
      );
      const next = page < pages ? page + 1 : null;
      const link = (n: number | null) =>
        n === null ? null : `${server.url}${url.pathname}?page%5Bnumber%5D=${n}&page%5Bsize%5D=${size}`;
      if (mode === 'links-only') return sendJson(response, 200, { data: items, links: { self: link(page), next: link(next) } });
      if (mode === 'stuck') {
        return sendJson(response, 200, { data: items, meta: { pagination: { 'current-page': 1, 'next-page': 1 } } });
      }
      sendJson(response, 200, {
        data: items,
        links: { self: link(page), next: link(next) },
        meta: { pagination: { 'current-page': page, 'page-size': size, 'prev-page': page > 1 ? page - 1 : null, 'next-page': next, 'total-pages': pages, 'total-count': total } },
      });
    });
  });
  after(() => server.close());

  test('iterateItems walks every page by meta.pagination.next-page with encoded page parameters', async () => {
    mode = 'numbers';
    server.requests.length = 0;
    const { client } = testClient(server.url);
    const ids = await collectItems(client.runs.workspacePages('ws-1', { pageSize: 20 }));
    assert.equal(ids.length, 45);
    assert.equal(ids[44]!.id, 'run-45');
    assert.deepEqual(
      server.requests.map((r) => r.url),
      [1, 2, 3].map((n) => `/api/v2/workspaces/ws-1/runs?page%5Bnumber%5D=${n}&page%5Bsize%5D=20`),
    );
    await client.close();
  });

  test('a single page carries its pagination, included resources and next page', async () => {
    mode = 'numbers';
    const { client } = testClient(server.url);
    const page = await client.runs.listForOrganization('acme', { pageNumber: 2, pageSize: 20 });
    assert.equal(page.items.length, 20);
    assert.equal(page.currentPage, 2);
    assert.equal(page.nextPage, 3);
    assert.equal(page.pagination?.['total-count'], 45);
    await client.close();
  });

  test('without page numbers (organization run list style) the page number in links.next is followed', async () => {
    mode = 'links-only';
    server.requests.length = 0;
    const { client } = testClient(server.url);
    const pages = [];
    for await (const page of iteratePages(client.runs.organizationPages('acme', { pageSize: 20 }))) pages.push(page.items.length);
    assert.deepEqual(pages, [20, 20, 5]);
    assert.equal(server.requests.length, 3);
    await client.close();
  });

  test('a next-page that does not advance ends the iteration instead of looping', async () => {
    mode = 'stuck';
    server.requests.length = 0;
    const { client } = testClient(server.url);
    const items = await collectItems(client.runs.workspacePages('ws-1'));
    assert.equal(items.length, 20);
    assert.equal(server.requests.length, 1);
    await client.close();
  });

  test('iteration is lazy: breaking out after the first items fetches no further page', async () => {
    mode = 'numbers';
    server.requests.length = 0;
    const { client } = testClient(server.url);
    let seen = 0;
    for await (const run of iterateItems(client.runs.workspacePages('ws-1', { pageSize: 20 }))) {
      seen++;
      if (run.id === 'run-3') break;
    }
    assert.equal(seen, 3);
    assert.equal(server.requests.length, 1);
    await client.close();
  });

  test('maxPages bounds the walk', async () => {
    mode = 'numbers';
    server.requests.length = 0;
    const { client } = testClient(server.url);
    const items = await collectItems(client.runs.workspacePages('ws-1', { pageSize: 10 }), { maxPages: 2 });
    assert.equal(items.length, 20);
    await client.close();
  });
});
