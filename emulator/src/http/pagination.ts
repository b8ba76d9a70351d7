// Page parameters and the list document's `links` + `meta.pagination` (notes §1.6).
import { invalidParameter } from './errors';

export interface PageRequest {
  number: number;
  size: number;
}

export const defaultPageSize = 20;
export const maxPageSize = 100;

/** Reads `page[number]`/`page[size]` (already percent-decoded by URLSearchParams). 422 when out of range. */
export function readPage(query: URLSearchParams, defaultSize = defaultPageSize): PageRequest {
  const size = readPositiveInteger(query, 'page[size]', defaultSize, `page[size] must be between 1 and ${maxPageSize}`);
  if (size > maxPageSize) throw invalidParameter(`page[size] must be between 1 and ${maxPageSize}`, 'page[size]');
  const number = readPositiveInteger(query, 'page[number]', 1, 'page[number] must be a positive integer');
  return { number, size };
}

function readPositiveInteger(query: URLSearchParams, name: string, fallback: number, message: string): number {
  const raw = query.get(name);
  if (raw === null || raw === '') return fallback;
  // Past 2^53 a page number is no longer exact (1e20 + 1 === 1e20): such a request is as invalid as "abc".
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || !Number.isSafeInteger(Number(raw))) throw invalidParameter(message, name);
  return Number(raw);
}

export interface Pagination {
  'current-page': number;
  'page-size': number;
  'prev-page': number | null;
  'next-page': number | null;
  'total-pages'?: number;
  'total-count'?: number;
}

export interface PaginatedList<T> {
  items: T[];
  links: Record<string, string | null>;
  meta: { pagination: Pagination };
}

export interface PaginateOptions {
  /** Absolute URL of the list without page parameters; other query parameters are kept. */
  url: URL;
  /** The organization run list has no totals and only self/prev/next links (notes §1.6). */
  withoutTotals?: boolean;
}

/**
 * Cuts one page out of `all`. An out-of-range page is an empty success (go-tfe's expectation). An empty list
 * reports `total-pages: 1`, so both client loop styles (`current < total`, `next-page != null`) stop at once.
 */
export function paginate<T>(all: T[], page: PageRequest, options: PaginateOptions): PaginatedList<T> {
  const totalPages = Math.max(1, Math.ceil(all.length / page.size));
  const items = all.slice((page.number - 1) * page.size, page.number * page.size);
  const prev = page.number > 1 ? Math.min(page.number - 1, totalPages) : null;
  const next = page.number < totalPages ? page.number + 1 : null;
  const link = (n: number | null) => (n === null ? null : pageUrl(options.url, n, page.size));
  const pagination: Pagination = {
    'current-page': page.number,
    'page-size': page.size,
    'prev-page': prev,
    'next-page': next,
  };
  if (options.withoutTotals) {
    return { items, links: { self: link(page.number), prev: link(prev), next: link(next) }, meta: { pagination } };
  }
  pagination['total-pages'] = totalPages;
  pagination['total-count'] = all.length;
  return {
    items,
    links: { self: link(page.number), first: link(1), prev: link(prev), next: link(next), last: link(totalPages) },
    meta: { pagination },
  };
}

/** `…?<other params>&page%5Bnumber%5D=N&page%5Bsize%5D=S`, brackets percent-encoded like the service's own links. */
function pageUrl(base: URL, number: number, size: number): string {
  const url = new URL(base.href);
  url.searchParams.delete('page[number]');
  url.searchParams.delete('page[size]');
  url.searchParams.set('page[number]', String(number));
  url.searchParams.set('page[size]', String(size));
  return url.href;
}
