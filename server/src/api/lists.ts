/** A PageFetcher for any list endpoint: by page number with the list's query, or by the previous page's link. */
import type { z } from 'zod';
import type { OperationName } from './operations';
import { toPage } from './pagination';
import type { ListDocument, Page, PageFetcher, PageTarget } from './pagination';
import type { QueryParams } from './query';
import type { RateBucket } from './rateLimiter';
import type { Requester } from './requester';

export interface ListEndpoint<T> {
  operation: OperationName;
  path: string;
  query: QueryParams;
  pageSize: number | undefined;
  schema: z.ZodType<ListDocument<T>>;
  bucket?: RateBucket;
  timeoutMs?: number;
}

export function pageFetcher<T>(requester: Requester, endpoint: ListEndpoint<T>): PageFetcher<T> {
  return async (target: PageTarget, signal?: AbortSignal): Promise<Page<T>> => {
    const where =
      'link' in target
        ? { url: target.link }
        : { path: endpoint.path, query: { ...endpoint.query, 'page[number]': target.pageNumber, 'page[size]': endpoint.pageSize } };
    const result = await requester.call({
      operation: endpoint.operation,
      method: 'GET',
      ...where,
      schema: endpoint.schema,
      bucket: endpoint.bucket,
      signal,
      timeoutMs: endpoint.timeoutMs,
    });
    return toPage(result.data, 'pageNumber' in target ? target.pageNumber : undefined);
  };
}
