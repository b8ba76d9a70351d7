// The demo's runs, played through the runs module's state machine from their creation time up to now
// (seedRun), so they carry real histories and the ones still in progress carry on live:
//   demo-app     applied (3 d) · discarded (2 d) · plan-only finished (1 d) · awaiting confirmation (10 min)
//                · pending behind it (2 min, queued by max — the force-execute case)
//   staging-api  applied (5 d) · auto-applying now (8 s ago)
//   prod-network stopped in policy_override (1 h)
//   sandbox      plan-only, no changes (1 h; the workspace is locked by a user)
//   legacy-batch errored (6 h)
//   hello-world  (acme-free) applied (7 d)
import { runEngineOf, seedRun, type CreateRunInput } from '../runs';
import type { Store } from '../store/store';
import { seedId } from './ids';

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;

export function seedDemoRuns(store: Store): void {
  const engine = runEngineOf(store);
  const owner = seedId('user', 'olivia-owner');
  const member = seedId('user', 'max-member');
  const workspaceId = (organization: string, name: string) => {
    const workspace = store.workspaceByName(organization, name);
    if (!workspace) throw new Error(`The demo seed has no workspace ${organization}/${name}.`);
    return workspace.id;
  };
  const ago = (ms: number) => new Date(store.now().getTime() - ms);
  const run = (organization: string, workspace: string, input: Omit<CreateRunInput, 'workspaceId' | 'createdByUserId' | 'queuerMayApply'> & { by?: string; mayApply?: boolean }) => {
    const { by = owner, mayApply = true, ...rest } = input;
    return { workspaceId: workspaceId(organization, workspace), createdByUserId: by, queuerMayApply: mayApply, ...rest };
  };

  const demo = 'acme-demo';
  seedRun(engine, run(demo, 'demo-app', { message: 'Add monitoring toggle', source: 'svc-ui' }), {
    createdAt: ago(3 * day),
    afterPause: { action: 'apply', userId: owner, comment: 'Looks good' },
  });
  seedRun(engine, run(demo, 'demo-app', { message: 'Try a bigger instance type' }), {
    createdAt: ago(2 * day),
    afterPause: { action: 'discard', userId: owner, comment: 'Too expensive' },
  });
  seedRun(engine, run(demo, 'demo-app', { message: 'Speculative plan from a pull request', planOnly: true, source: 'svc-configuration-version' }), {
    createdAt: ago(1 * day),
  });
  seedRun(engine, run(demo, 'demo-app', { message: 'Scale to three instances', source: 'svc-ui' }), { createdAt: ago(10 * minute) });
  seedRun(engine, run(demo, 'demo-app', { message: 'Tag everything with the cost centre', by: member, mayApply: false }), {
    createdAt: ago(2 * minute),
  });

  seedRun(engine, run(demo, 'staging-api', { message: 'Release 2.3.0' }), { createdAt: ago(5 * day) });
  seedRun(engine, run(demo, 'staging-api', { message: 'Release 2.4.0-rc1' }), { createdAt: ago(8_000) });

  seedRun(engine, run(demo, 'prod-network', { message: 'Open peering to the analytics VPC' }), { createdAt: ago(1 * hour) });
  seedRun(engine, run(demo, 'sandbox', { message: 'Check for drift', planOnly: true }), { createdAt: ago(1 * hour) });
  seedRun(engine, run(demo, 'legacy-batch', { message: 'Nightly batch schedule change' }), { createdAt: ago(6 * hour) });

  seedRun(engine, run('acme-free', 'hello-world', { message: 'First apply' }), {
    createdAt: ago(7 * day),
    afterPause: { action: 'apply', userId: owner },
  });
}
