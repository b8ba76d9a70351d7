/**
 * The deprecated /vars interface (spec §4.5). Kept because the spec names it; the workspace-variables interface
 * replaces it on the real service. Sensitive values are passed as `secrets` so a validation error that echoes
 * them never carries them into a message.
 */
import { collectItems } from './pagination';
import { pageFetcher } from './lists';
import { segment } from './query';
import type { CallOptions, Requester } from './requester';
import { variableDocumentSchema, variableListDocumentSchema } from './schemas/variables';
import type { Variable, VariableCategory } from './schemas/variables';

export interface VariableFields {
  key: string;
  /** Default "". An HCL expression when `hcl` is true. */
  value?: string;
  description?: string;
  category: VariableCategory;
  hcl?: boolean;
  sensitive?: boolean;
}

export interface CreateVariableInput extends VariableFields {
  workspaceId: string;
}

/** The two list filters go together or not at all (the service calls them "optional but linked"). */
export interface VariableScope {
  organization: string;
  workspace: string;
}

export class VariablesApi {
  constructor(private readonly requester: Requester) {}

  /** Creates a variable on a workspace, named by relationship (the non-deprecated way). */
  async create(input: CreateVariableInput, options: CallOptions = {}): Promise<Variable> {
    const { workspaceId, ...fields } = input;
    const result = await this.requester.call({
      operation: 'createVariable',
      method: 'POST',
      path: '/vars',
      body: {
        data: {
          type: 'vars',
          attributes: definedOnly(fields),
          relationships: { workspace: { data: { type: 'workspaces', id: workspaceId } } },
        },
      },
      schema: variableDocumentSchema,
      secrets: secretValues(fields),
      ...options,
    });
    return result.data.data;
  }

  /** Variables of one workspace, or (without a scope) of every workspace this token may read variables of. */
  list(scope?: VariableScope, options: CallOptions = {}): Promise<Variable[]> {
    const fetch = pageFetcher(this.requester, {
      operation: 'listVariables',
      path: '/vars',
      query: scope ? { 'filter[organization][name]': scope.organization, 'filter[workspace][name]': scope.workspace } : {},
      pageSize: undefined,
      schema: variableListDocumentSchema,
      timeoutMs: options.timeoutMs,
    });
    return collectItems(fetch, { signal: options.signal });
  }

  /** Changes only the given fields; omitted ones stay as they are. */
  async update(variableId: string, changes: Partial<VariableFields>, options: CallOptions = {}): Promise<Variable> {
    const result = await this.requester.call({
      operation: 'updateVariable',
      method: 'PATCH',
      path: `/vars/${segment(variableId)}`,
      body: { data: { type: 'vars', id: variableId, attributes: definedOnly(changes) } },
      schema: variableDocumentSchema,
      secrets: secretValues(changes),
      ...options,
    });
    return result.data.data;
  }

  async delete(variableId: string, options: CallOptions = {}): Promise<void> {
    await this.requester.call({ operation: 'deleteVariable', method: 'DELETE', path: `/vars/${segment(variableId)}`, ...options });
  }
}

function definedOnly(fields: Partial<VariableFields>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/**
 * Every value sent is kept out of error messages: an update may not say `sensitive` although the variable is,
 * and hiding a harmless value from an error costs nothing.
 */
function secretValues(fields: Partial<VariableFields>): string[] {
  return fields.value ? [fields.value] : [];
}
