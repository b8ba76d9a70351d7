// The demo's runs, played through the runs module's state machine from their creation time up to now
// (seedRun), so they carry real histories and the ones still in progress carry on live. Every workspace plans
// from its configuration (configurations.ts), so each plan changes what differs from what was applied before:
//   demo-app     applied with one instance (3 d) · discarded (2 d) · plan-only (1 d) · awaiting confirmation, +2
//                instances (10 min) · pending behind it (2 min, queued by max — the force-execute case)
//   staging-api  2.3.0 applied (5 d) · 2.4.0-rc1 auto-applying now (8 s ago; its own configuration version)
//   prod-network the VPC applied (60 d, before its policy set) · a second peering stopped in policy_override (1 h)
//   sandbox      applied (20 d) · locked by a user · plan-only, no changes (1 h)
//   legacy-batch errored (6 h)
//   hello-world  (acme-free) applied (7 d)
// Nothing is left waiting for ever: the only runs holding a workspace await a user (confirmation, policy
// override), and the only run waiting is behind one of those (test/emulator/seeds.test.ts drains them all).
import { runEngineOf, seedRun, type CreateRunInput } from '../runs';
import type { Store } from '../store/store';
import { addConfigurationVersion, lockWorkspace } from './builders';
import { filesOf, stagingApiFiles } from './configurations';
import { seedId } from './ids';

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;

export function seedDemoRuns(store: Store): void {
  const engine = runEngineOf(store);
  const owner = seedId('user', 'olivia-owner');
  const member = seedId('user', 'max-member');
  const workspaceOf = (organization: string, name: string) => {
    const workspace = store.workspaceByName(organization, name);
    if (!workspace) throw new Error(`The demo seed has no workspace ${organization}/${name}.`);
    return workspace;
  };
  const ago = (ms: number) => new Date(store.now().getTime() - ms);
  const run = (organization: string, workspace: string, input: Omit<CreateRunInput, 'workspaceId' | 'createdByUserId' | 'queuerMayApply'> & { by?: string; mayApply?: boolean }) => {
    const { by = owner, mayApply = true, ...rest } = input;
    return { workspaceId: workspaceOf(organization, workspace).id, createdByUserId: by, queuerMayApply: mayApply, ...rest };
  };

  const demo = 'acme-demo';
  // demo-app: one instance applied (a run variable then; the workspace says three now), so the later plans each
  // create the two more instances "Scale to three instances" is about.
  seedRun(engine, run(demo, 'demo-app', { message: 'Add monitoring toggle', source: 'svc-ui', variables: [{ key: 'instance_count', value: '1' }] }), {
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

  // staging-api: each release is a push, so a configuration version of its own.
  const staging = workspaceOf(demo, 'staging-api');
  for (const [release, age] of [['2.3.0', 5 * day], ['2.4.0-rc1', 8_000]] as const) {
    const version = addConfigurationVersion(store, staging, `release-${release}`, { source: 'github', files: filesOf(stagingApiFiles(release)), createdAt: ago(age + 1_000) });
    seedRun(engine, run(demo, 'staging-api', { message: `Release ${release}`, configurationVersionId: version.id, source: 'svc-configuration-version' }), { createdAt: ago(age) });
  }

  // prod-network: the VPC was built before the network-baseline policy set was attached (that first apply had
  // no policy check to override) and peered with one VPC; the run peering the second stops for an override.
  const network = workspaceOf(demo, 'prod-network');
  const policySets = network.policySets;
  network.policySets = [];
  seedRun(engine, run(demo, 'prod-network', { message: 'Build the production VPC', variables: [{ key: 'peer_vpc_ids', value: '["vpc-0a1"]' }] }), {
    createdAt: ago(60 * day),
    afterPause: { action: 'apply', userId: owner },
  });
  network.policySets = policySets;
  seedRun(engine, run(demo, 'prod-network', { message: 'Open peering to the analytics VPC' }), { createdAt: ago(1 * hour) });

  // sandbox: applied, then locked for maintenance (a lock taken before would have kept that apply pending for ever);
  // a plan-only run does not need the workspace, and finds nothing to change.
  const sandbox = workspaceOf(demo, 'sandbox');
  seedRun(engine, run(demo, 'sandbox', { message: 'Set up the playground' }), {
    createdAt: ago(20 * day),
    afterPause: { action: 'apply', userId: owner },
  });
  const ownerUser = store.users.get(owner);
  if (ownerUser) lockWorkspace(sandbox, ownerUser, 'Maintenance: rotating provider credentials');
  seedRun(engine, run(demo, 'sandbox', { message: 'Check for drift', planOnly: true }), { createdAt: ago(1 * hour) });

  seedRun(engine, run(demo, 'legacy-batch', { message: 'Nightly batch schedule change' }), { createdAt: ago(6 * hour) });

  seedRun(engine, run('acme-free', 'hello-world', { message: 'First apply' }), {
    createdAt: ago(7 * day),
    afterPause: { action: 'apply', userId: owner },
  });
}
