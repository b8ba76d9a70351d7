/** Workspaces (notes §7): list with search[name], show by organization + name or by id, lock state and current run. */
import { pageFetcher } from './lists';
import type { Page, PageFetcher } from './pagination';
import { segment } from './query';
import type { CallOptions, Requester } from './requester';
import type { AnyResource } from './schemas/jsonapi';
import { findIncluded, relatedId } from './schemas/jsonapi';
import { workspaceDocumentSchema, workspaceListDocumentSchema } from './schemas/workspaces';
import type { Workspace } from './schemas/workspaces';

/** Values the service accepts for `include` on workspaces; any other string is passed through. */
export type WorkspaceInclude = 'current_run' | 'current_run.plan' | 'current_run.apply' | 'locked_by' | 'organization' | (string & {});

export interface WorkspaceListOptions {
  pageNumber?: number;
  pageSize?: number;
  /** Fuzzy match on the name (`search[name]`). */
  searchName?: string;
  include?: WorkspaceInclude[];
}

export interface WorkspaceDocument {
  workspace: Workspace;
  included: AnyResource[];
}

export interface WorkspaceLock {
  locked: boolean;
  reason: string | undefined;
  /** Who holds the lock: a run, user or team identifier, when the service says. */
  lockedBy: { id: string; type: string } | undefined;
}

export class WorkspacesApi {
  constructor(private readonly requester: Requester) {}

  list(organization: string, filters: WorkspaceListOptions = {}, options: CallOptions = {}): Promise<Page<Workspace>> {
    return this.pages(organization, filters)({ pageNumber: filters.pageNumber ?? 1 }, options.signal);
  }

  pages(organization: string, filters: WorkspaceListOptions = {}): PageFetcher<Workspace> {
    return pageFetcher(this.requester, {
      operation: 'listWorkspaces',
      path: `/organizations/${segment(organization)}/workspaces`,
      query: { 'search[name]': filters.searchName, include: filters.include },
      pageSize: filters.pageSize,
      schema: workspaceListDocumentSchema,
    });
  }

  async getByName(
    organization: string,
    name: string,
    options: CallOptions & { include?: WorkspaceInclude[] } = {},
  ): Promise<WorkspaceDocument> {
    return this.get(`/organizations/${segment(organization)}/workspaces/${segment(name)}`, options);
  }

  async getById(workspaceId: string, options: CallOptions & { include?: WorkspaceInclude[] } = {}): Promise<WorkspaceDocument> {
    return this.get(`/workspaces/${segment(workspaceId)}`, options);
  }

  private async get(path: string, options: CallOptions & { include?: WorkspaceInclude[] }): Promise<WorkspaceDocument> {
    const { include, ...callOptions } = options;
    const result = await this.requester.call({
      operation: 'getWorkspace',
      method: 'GET',
      path,
      query: { include },
      schema: workspaceDocumentSchema,
      ...callOptions,
    });
    return { workspace: result.data.data, included: result.data.included ?? [] };
  }
}

export function workspaceLock(workspace: Workspace): WorkspaceLock {
  const data = workspace.relationships?.['locked-by']?.data;
  return {
    locked: workspace.attributes.locked === true,
    reason: workspace.attributes['locked-reason'] ?? undefined,
    lockedBy: data && !Array.isArray(data) ? { id: data.id, type: data.type } : undefined,
  };
}

/** The id of the workspace's current run, if it has one. */
export function currentRunId(workspace: Workspace): string | undefined {
  return relatedId(workspace, 'current-run');
}

/** The current run from a document read with `include: ['current_run']`. */
export function includedCurrentRun(document: WorkspaceDocument): AnyResource | undefined {
  const id = currentRunId(document.workspace);
  return id ? findIncluded(document.included, { id, type: 'runs' }) : undefined;
}
