// `?include=` for run documents (spec §4.2 "Related resources", notes §4.8): related resources appear once
// each in `included`. An include the service does not know is a 400 ending in "Invalid include parameter".
import { badRequest } from '../http/errors';
import type { Caller } from '../store/caller';
import { serializeConfigurationVersion, serializeIngressAttributes } from '../routes/configurationVersions';
import { serializeUser } from '../routes/users';
import { serializeWorkspace } from '../routes/workspaces';
import type { RunEngine } from './engine';
import type { RunRecord } from './model';
import { serializeApply, serializeCostEstimate, serializePlan, serializeTaskStage } from './serialize-parts';

export const runIncludes: readonly string[] = [
  'plan',
  'apply',
  'created_by',
  'cost_estimate',
  'configuration_version',
  'configuration_version.ingress_attributes',
  // Not in the spec's list, but the service accepts them (notes §4.8); refusing them would break real clients.
  'workspace',
  'task_stages',
];

export function readIncludes(query: URLSearchParams): string[] {
  const raw = query.get('include');
  if (raw === null || raw.trim() === '') return [];
  const names = raw.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !runIncludes.includes(name));
  if (unknown.length > 0) {
    throw badRequest(`${unknown.join(', ')} is not one of ${runIncludes.join(', ')}: Invalid include parameter`);
  }
  return names;
}

export function includedResources(engine: RunEngine, caller: Caller, runs: RunRecord[], includes: string[], origin: string): unknown[] {
  const included = new Map<string, unknown>();
  const add = (resource: Record<string, unknown> | undefined) => {
    if (resource) included.set(`${String(resource.type)}/${String(resource.id)}`, resource);
  };
  for (const run of runs) {
    const version = engine.store.configurationVersion(run.configurationVersionId);
    for (const name of includes) {
      switch (name) {
        case 'plan':
          add(serializePlan(engine.records.plan(run), origin));
          break;
        case 'apply':
          add(serializeApply(engine.records.apply(run), origin));
          break;
        case 'created_by': {
          const user = engine.store.users.get(run.createdByUserId);
          if (user) add(serializeUser(user, { withEmail: user.id === caller.user.id }));
          break;
        }
        case 'cost_estimate': {
          const estimate = engine.records.costEstimate(run);
          if (estimate) add(serializeCostEstimate(estimate));
          break;
        }
        case 'configuration_version':
          if (version) add(serializeConfigurationVersion(version));
          break;
        case 'configuration_version.ingress_attributes':
          // The nested include brings the version too, as JSON:API requires for a path through it.
          if (version) add(serializeConfigurationVersion(version));
          if (version?.ingress) add(serializeIngressAttributes(version.ingress));
          break;
        case 'workspace': {
          const workspace = engine.store.workspace(run.workspaceId);
          if (workspace) add(serializeWorkspace(engine.store, caller, workspace));
          break;
        }
        case 'task_stages':
          for (const id of run.taskStageIds) {
            const stage = engine.records.taskStages.get(id);
            if (stage) add(serializeTaskStage(stage));
          }
          break;
      }
    }
  }
  return [...included.values()];
}
