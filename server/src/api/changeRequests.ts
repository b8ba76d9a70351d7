/**
 * Change requests (spec §4.3, public beta): list by workspace NAME, show, archive, and create through the
 * explorer's experimental bulk-actions operation. Paths are the spec's, which rule over the notes' variants.
 */
import { pageFetcher } from './lists';
import type { Page, PageFetcher } from './pagination';
import { segment } from './query';
import type { CallOptions, Requester } from './requester';
import { bulkActionDocumentSchema, changeRequestDocumentSchema, changeRequestListDocumentSchema } from './schemas/changeRequests';
import type { ChangeRequest } from './schemas/changeRequests';
import type { AnyResource } from './schemas/jsonapi';

export interface CreateChangeRequestInput {
  subject: string;
  /** Markdown. */
  message: string;
  /** Workspace ids to attach it to; not needed when `query` is given. */
  targetIds?: string[];
  /** An explorer query over workspace data; not needed when `targetIds` is given. */
  query?: Record<string, unknown>;
}

export class ChangeRequestsApi {
  constructor(private readonly requester: Requester) {}

  list(workspaceName: string, page: { pageNumber?: number; pageSize?: number } = {}, options: CallOptions = {}): Promise<Page<ChangeRequest>> {
    return this.pages(workspaceName, page.pageSize)({ pageNumber: page.pageNumber ?? 1 }, options.signal);
  }

  pages(workspaceName: string, pageSize?: number): PageFetcher<ChangeRequest> {
    return pageFetcher(this.requester, {
      operation: 'listChangeRequests',
      path: `/workspaces/${segment(workspaceName)}/change-requests`,
      query: {},
      pageSize,
      schema: changeRequestListDocumentSchema,
    });
  }

  async get(changeRequestId: string, options: CallOptions = {}): Promise<ChangeRequest> {
    const result = await this.requester.call({
      operation: 'getChangeRequest',
      method: 'GET',
      path: `/workspaces/change-requests/${segment(changeRequestId)}`,
      schema: changeRequestDocumentSchema,
      ...options,
    });
    return result.data.data;
  }

  /** Archives it and returns the archived change request (the spec's POST on the change request's path). */
  async archive(changeRequestId: string, options: CallOptions = {}): Promise<ChangeRequest> {
    const result = await this.requester.call({
      operation: 'archiveChangeRequest',
      method: 'POST',
      path: `/workspaces/change-requests/${segment(changeRequestId)}`,
      schema: changeRequestDocumentSchema,
      ...options,
    });
    return result.data.data;
  }

  /** Creates a change request on the target workspaces; the response's shape is not specified, so it is returned as is. */
  async create(organization: string, input: CreateChangeRequestInput, options: CallOptions = {}): Promise<AnyResource> {
    const data: Record<string, unknown> = {
      action_type: 'change_request',
      action_inputs: { subject: input.subject, message: input.message },
    };
    if (input.targetIds !== undefined) data['target_ids'] = input.targetIds;
    if (input.query !== undefined) data['query'] = input.query;
    const result = await this.requester.call({
      operation: 'createChangeRequest',
      method: 'POST',
      path: `/organizations/${segment(organization)}/explorer/bulk-actions`,
      body: { data },
      schema: bulkActionDocumentSchema,
      ...options,
    });
    return result.data.data;
  }
}
