// A workspace record with the service's defaults for a new workspace: what the create route and the seeds share,
// each giving only what differs (ids, times, version, how its simulated plans turn out).
import type { Workspace } from './model';

export function newWorkspace(fields: Pick<Workspace, 'id' | 'name' | 'organization' | 'createdAt'> & Partial<Workspace>): Workspace {
  return {
    description: '',
    updatedAt: fields.createdAt,
    autoApply: false,
    terraformVersion: '1.11.4',
    workingDirectory: '',
    executionMode: 'remote',
    tagNames: [],
    lockedBy: null,
    lockedReason: '',
    currentRunId: null,
    latestConfigurationVersionId: null,
    policySets: [],
    runTasks: [],
    planOutcome: { hasChanges: true, errors: false, resourceAdditions: 1, resourceChanges: 0, resourceDestructions: 0 },
    ...fields,
  };
}
