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
