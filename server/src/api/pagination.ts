/**
 * Pages of a list and iteration over all of them. The next page is found from `meta.pagination.next-page`
 * (notes §1.6) or, when the service sends no numbers (the organization run list has no totals), from
 * `links.next`. A page that would not move forward ends the iteration, so a confused server cannot loop us forever.
 */
import type { AnyResource, Pagination } from './schemas/jsonapi';

export interface Page<T> {
  items: T[];
  /** Related resources asked for with `include`. */
  included: AnyResource[];
  pagination: Pagination | undefined;
  /** The number of this page (1 when the service does not say). */
  currentPage: number;
  /** The next page's number, when there is one and it is known. */
  nextPage: number | undefined;
  /** The next page's absolute link, when the service gave one. */
  nextLink: string | undefined;
}

/** Where to fetch a page: by number (the usual case) or by the link the previous page gave. */
export type PageTarget = { pageNumber: number } | { link: URL };

export type PageFetcher<T> = (target: PageTarget, signal?: AbortSignal) => Promise<Page<T>>;

export interface ListDocument<T> {
  data: T[];
  included?: AnyResource[] | undefined;
  links?: Record<string, string | null | undefined> | null | undefined;
  meta?: { pagination?: Pagination | null | undefined } | null | undefined;
}

/** Builds a Page from a validated list document. */
export function toPage<T>(document: ListDocument<T>, requestedPage: number | undefined): Page<T> {
  const pagination = document.meta?.pagination ?? undefined;
  const currentPage = pagination?.['current-page'] ?? requestedPage ?? 1;
  const nextFromMeta = pagination?.['next-page'] ?? undefined;
  const nextLink = document.links?.['next'] ?? undefined;
  return {
    items: document.data,
    included: document.included ?? [],
    pagination,
    currentPage,
    nextPage: nextFromMeta ?? pageNumberOf(nextLink),
    nextLink,
  };
}

export interface IterateOptions {
  /** Page to start from (default 1). */
  startPage?: number;
  /** Stop after this many pages (default 1000), a guard against endless lists. */
  maxPages?: number;
  signal?: AbortSignal;
}

/** Every page in order, fetched lazily: stop iterating and no further page is requested. */
export async function* iteratePages<T>(fetchPage: PageFetcher<T>, options: IterateOptions = {}): AsyncGenerator<Page<T>> {
  const maxPages = options.maxPages ?? 1000;
  let target: PageTarget | undefined = { pageNumber: options.startPage ?? 1 };
  for (let fetched = 0; target && fetched < maxPages; fetched++) {
    const page = await fetchPage(target, options.signal);
    yield page;
    target = nextTarget(page);
  }
}

/** Every item of every page, in order. */
export async function* iterateItems<T>(fetchPage: PageFetcher<T>, options: IterateOptions = {}): AsyncGenerator<T> {
  for await (const page of iteratePages(fetchPage, options)) yield* page.items;
}

/** All items, gathered (for lists known to be small). */
export async function collectItems<T>(fetchPage: PageFetcher<T>, options: IterateOptions = {}): Promise<T[]> {
  const all: T[] = [];
  for await (const item of iterateItems(fetchPage, options)) all.push(item);
  return all;
}

function nextTarget(page: Page<unknown>): PageTarget | undefined {
  if (page.items.length === 0) return undefined;
  if (page.nextPage !== undefined) return page.nextPage > page.currentPage ? { pageNumber: page.nextPage } : undefined;
  if (page.nextLink) {
    try {
      return { link: new URL(page.nextLink) };
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function pageNumberOf(link: string | undefined): number | undefined {
  if (!link) return undefined;
  try {
    const value = new URL(link, 'http://relative.invalid').searchParams.get('page[number]');
    const number = value === null ? NaN : Number(value);
    return Number.isInteger(number) && number > 0 ? number : undefined;
  } catch {
    return undefined;
  }
}
