// The plan's JSON output (notes §5.1): `GET /plans/:id/json-output` answers 204 until the plan is finished, then
// 307 to a short-lived blob URL serving a `terraform show -json`-shaped document built from the plan's changes.
import type { PlannedChange, RunRecord } from './model';

export const planJsonPathPrefix = '/_archivist/v1/plan-json/';

const actionsOf: Record<PlannedChange['action'], string[]> = {
  create: ['create'],
  update: ['update'],
  delete: ['delete'],
  replace: ['delete', 'create'],
};

export function planJsonDocument(run: RunRecord): Record<string, unknown> {
  return {
    format_version: '1.2',
    terraform_version: run.engineVersion,
    resource_changes: run.changes.map((change) => {
      const bare = change.address.replace(/\[\d+\]$/, '');
      const dot = bare.indexOf('.');
      const index = /\[(\d+)\]$/.exec(change.address)?.[1];
      return {
        address: change.address,
        mode: 'managed',
        type: bare.slice(0, dot),
        name: bare.slice(dot + 1),
        ...(index !== undefined ? { index: Number(index) } : {}),
        change: { actions: actionsOf[change.action] },
        ...(change.action === 'replace' ? { action_reason: 'replace_by_request' } : {}),
      };
    }),
  };
}

/**
 * What `GET /plans/:id/json-output-redacted` serves: the plan in the shape the CLI's renderer reads (plan and provider
 * format versions, empty provider schemas: every attribute is shown as written), with sensitive values redacted.
 */
export function redactedPlanJsonDocument(run: RunRecord): Record<string, unknown> {
  const plan = planJsonDocument(run);
  const provider = 'registry.terraform.io/hashicorp/emulated';
  const changes = (plan.resource_changes as Array<Record<string, unknown>>).map((change) => {
    const actions = (change.change as { actions: string[] }).actions;
    const id = `emulated-${String(change.address)}`;
    const before = actions.includes('create') && !actions.includes('delete') ? null : { id };
    const after = actions.includes('delete') && !actions.includes('create') ? null : actions.includes('create') ? {} : { id };
    return {
      ...change,
      provider_name: provider,
      change: { ...(change.change as object), before, after, after_unknown: after && !('id' in after) ? { id: true } : {}, before_sensitive: before ? {} : false, after_sensitive: after ? {} : false },
    };
  });
  // The renderer needs a schema for every resource type it shows: the emulated resources have a computed id.
  const resourceSchemas = Object.fromEntries(
    [...new Set(changes.map((change) => String((change as { type?: unknown }).type)))].map((type) => [type, { version: 0, block: { attributes: { id: { type: 'string', computed: true } } } }]),
  );
  return {
    plan_format_version: '1.2',
    provider_format_version: '1.0',
    terraform_version: plan.terraform_version,
    resource_changes: changes,
    resource_drift: [],
    output_changes: {},
    relevant_attributes: [],
    provider_schemas: { [provider]: { provider: { version: 0, block: {} }, resource_schemas: resourceSchemas, data_source_schemas: {} } },
  };
}
