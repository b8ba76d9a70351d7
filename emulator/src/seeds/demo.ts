// The `demo` seed: organization `acme-demo` on the top paid edition with workspaces that exercise every run
// path, and `acme-free` on the free tier. `demo-app` follows the demo contract with test/fixtures/demo-app/:
// its variables are chosen so the language server has something to say about each one. Every workspace plans
// from a real configuration (configurations.ts), so the runs' numbers are the engine's (demoRuns.ts).
import type { TokenRole } from '../store/model';
import type { Store } from '../store/store';
import { addChangeRequests, addConfigurationVersion, addOrganization, addTeam, addVariables, addWorkspace, daysAgo, grant } from './builders';
import { demoAppFiles, filesOf, helloWorldFiles, legacyBatchFiles, prodNetworkFiles, sandboxFiles } from './configurations';
import { freeFeatureSet, premiumFeatureSet } from './featureSets';
import { seedId } from './ids';
import { seedDemoRuns } from './demoRuns';
import { addPeople } from './people';

export const demoOrganization = 'acme-demo';
export const freeOrganization = 'acme-free';

/** demo-app's `services` workspace variable (HCL): fits `variable "services"` in test/fixtures/demo-app/variables.tf. */
export const demoAppServices = '{ web = { port = 80, public = true }, api = { port = 8080, public = false } }';

export function seedDemo(store: Store, tokens: Record<TokenRole, string>): void {
  addOrganization(store, demoOrganization, premiumFeatureSet(), 400);
  addOrganization(store, freeOrganization, freeFeatureSet(), 90);
  const { owner, developers, auditors } = addPeople(store, demoOrganization, tokens);

  // demo-app: manual confirmation, cost estimation (org feature), a passing soft-mandatory policy set.
  const demoApp = addWorkspace(store, demoOrganization, 'demo-app', {
    description: 'The sample app in test/fixtures/demo-app (cloud block: acme-demo / demo-app).',
    tagNames: ['demo', 'app'],
    policySets: [{ name: 'cost-guardrails', enforcement: 'soft-mandatory', passes: true }],
    createdDaysAgo: 200,
  });
  // staging-api: auto-apply with an advisory post-plan run task.
  const stagingApi = addWorkspace(store, demoOrganization, 'staging-api', {
    description: 'Staging API service; applies automatically.',
    autoApply: true,
    tagNames: ['staging'],
    runTasks: [{ name: 'security-scan', stage: 'post_plan', enforcement: 'advisory', passes: true }],
    createdDaysAgo: 150,
  });
  // prod-network: a soft-mandatory policy that fails, so plans stop in policy_override (attached after the VPC was
  // built: see demoRuns.ts).
  const prodNetwork = addWorkspace(store, demoOrganization, 'prod-network', {
    description: 'Production VPC and peering; change needs a policy override.',
    tagNames: ['prod'],
    policySets: [{ name: 'network-baseline', enforcement: 'soft-mandatory', passes: false }],
    runTasks: [{ name: 'change-window', stage: 'pre_plan', enforcement: 'mandatory', passes: true }],
    createdDaysAgo: 300,
  });
  // sandbox: its state holds what its configuration declares, so plans have no changes (planned_and_finished);
  // locked by the owner for maintenance once that was applied (demoRuns.ts).
  const sandbox = addWorkspace(store, demoOrganization, 'sandbox', {
    description: 'Experiments; nothing to change.',
    planOutcome: { hasChanges: false, errors: false, resourceAdditions: 0, resourceChanges: 0, resourceDestructions: 0 },
    createdDaysAgo: 30,
  });
  // legacy-batch: plans error out (its plan outcome says so; the configuration itself is unremarkable).
  const legacyBatch = addWorkspace(store, demoOrganization, 'legacy-batch', {
    description: 'Old batch jobs; the configuration no longer plans.',
    terraformVersion: '1.5.7',
    planOutcome: { hasChanges: true, errors: true, resourceAdditions: 0, resourceChanges: 0, resourceDestructions: 0 },
    createdDaysAgo: 700,
  });

  // Per-workspace access: max may queue plans on demo-app but not apply; more elsewhere to show every level.
  grant(developers, demoApp, 'plan');
  grant(developers, stagingApi, 'write');
  grant(developers, prodNetwork, 'read');
  grant(developers, sandbox, 'admin');
  grant(developers, legacyBatch, 'plan');
  for (const workspace of [demoApp, stagingApi, prodNetwork, sandbox, legacyBatch]) grant(auditors, workspace, 'read');

  addConfigurationVersion(store, demoApp, 'main', {
    source: 'github',
    ingress: {
      id: seedId('ia', 'demo-app/main'),
      branch: 'main',
      commitSha: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
      commitMessage: 'Add monitoring toggle and service map',
      senderUsername: 'olivia-owner',
      identifier: 'acme/demo-app',
    },
    files: filesOf(demoAppFiles),
    createdAt: daysAgo(store, 4),
  });
  // staging-api gets a configuration version per release, with its runs (demoRuns.ts).
  addConfigurationVersion(store, prodNetwork, 'main', { files: filesOf(prodNetworkFiles), createdAt: daysAgo(store, 61) });
  addConfigurationVersion(store, sandbox, 'main', { files: filesOf(sandboxFiles), createdAt: daysAgo(store, 21) });
  addConfigurationVersion(store, legacyBatch, 'main', { files: filesOf(legacyBatchFiles) });

  addVariables(store, demoApp, [
    // HCL, so a plan counts three instances (the applied run before had one).
    { key: 'instance_count', value: '3', category: 'engine', description: 'How many app servers', hcl: true },
    { key: 'region', value: 'eu-north-1', category: 'engine', description: 'Overrides terraform.tfvars' },
    // Sensitive in the code, not here: the language server should point out the mismatch.
    { key: 'db_password', value: 'hunter2-demo', category: 'engine', sensitive: false },
    // A map(object({ port, public })) as variables.tf declares it: one registration per service.
    { key: 'services', value: demoAppServices, category: 'engine', hcl: true },
    // Not declared by the configuration.
    { key: 'legacy_flag', value: 'true', category: 'engine' },
    { key: 'TF_VAR_enable_monitoring', value: 'true', category: 'env' },
    { key: 'TF_LOG', value: 'INFO', category: 'env' },
    { key: 'AWS_SECRET_ACCESS_KEY', value: 'demo-secret-access-key-never-shown', category: 'env', sensitive: true },
  ]);
  addVariables(store, stagingApi, [
    { key: 'replicas', value: '2', category: 'engine' },
    { key: 'feature_flags', value: '{ beta = true }', category: 'engine', hcl: true },
    { key: 'API_TOKEN', value: 'staging-api-token-never-shown', category: 'env', sensitive: true },
  ]);
  addVariables(store, prodNetwork, [
    { key: 'cidr_block', value: '10.20.0.0/16', category: 'engine' },
    { key: 'peer_vpc_ids', value: '["vpc-0a1", "vpc-0b2"]', category: 'engine', hcl: true },
  ]);

  addChangeRequests(store, demoApp, [
    { subject: 'Mark db_password as sensitive in the workspace', message: 'The code declares `db_password` sensitive; the workspace variable is **not**.', createdDaysAgo: 3, by: owner },
    { subject: 'Remove legacy_flag', message: '`legacy_flag` is not declared in the configuration any more.', createdDaysAgo: 5, by: owner },
    { subject: 'Make replica_count a number', message: '`replica_count = "three"` in terraform.tfvars does not convert to a `number`.', createdDaysAgo: 1, by: owner },
    { subject: 'Fix the services HCL value', message: 'The value of `services` had an unbalanced `{`. Fixed: it is a map of services again.', createdDaysAgo: 6, archivedDaysAgo: 3, by: owner },
    { subject: 'Upgrade Terraform to 1.9', message: 'Done in the workspace settings.', createdDaysAgo: 40, archivedDaysAgo: 30, by: owner },
  ]);
  addChangeRequests(store, stagingApi, [
    { subject: 'Scale replicas for the launch', message: 'Raise `replicas` to 4 for launch week.', createdDaysAgo: 2, by: owner },
  ]);

  // The free organization: the owner owns it too; member and reader are not in it (404 there).
  addTeam(store, freeOrganization, 'owners', [owner], true);
  const hello = addWorkspace(store, freeOrganization, 'hello-world', { description: 'Free-tier starter workspace.' });
  addConfigurationVersion(store, hello, 'main', { files: filesOf(helloWorldFiles), createdAt: daysAgo(store, 8) });
  addVariables(store, hello, [{ key: 'greeting', value: 'hello', category: 'engine' }]);

  seedDemoRuns(store);
}
