// Structured run output, the service's default for a workspace: the plan and apply logs are the worker's plain
// lines then Terraform's `-json` UI lines, and the plan JSON (json-output and json-output-redacted) carries each
// instance's attributes before and after, sensitive ones redacted in the redacted document. All three come from
// the same plan, and so does the state the apply writes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startHarness, type Harness } from './runs-harness';

const configuration = `
variable "password" {
  sensitive = true
  default   = "from-default"
}

resource "aws_instance" "web" {
  ami      = "ami-123"
  password = var.password
  subnet   = aws_subnet.main.id
}

resource "aws_subnet" "main" {
  cidr = "10.0.0.0/24"
}

output "ami" {
  value = "ami-123"
}
`;

describe('structured run output and plan JSON with attributes', () => {
  let h: Harness;
  let workspaceId: string;

  const log = async (run: string, phase: 'plan' | 'apply') => {
    const url = (await h.api('GET', `/api/v2/runs/${run}/${phase}`)).body.data.attributes['log-read-url'];
    const text = await (await fetch(url)).text();
    return text.replace(/^\u0002|\u0003$/g, '').split('\n').filter(Boolean);
  };
  const jsonLines = (lines: string[]) => lines.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line));
  const planJson = async (run: string, redacted: boolean) => {
    const planId = (await h.run(run)).relationships.plan.data.id;
    const response = await fetch(`${h.url}/api/v2/plans/${planId}/json-output${redacted ? '-redacted' : ''}`, { headers: { Authorization: `Bearer ${h.tokens.owner}` } });
    assert.equal(response.status, 200);
    return (await response.json()) as any;
  };

  before(async () => {
    h = await startHarness({ followConfiguration: true });
    const { workspace } = h.addWorkspace('structured', { autoApply: false });
    workspaceId = workspace.id;
    h.store.configurationVersions.get(workspace.latestConfigurationVersionId!)!.files = new Map([['main.tf', Buffer.from(configuration)]]);
  });
  after(() => h.close());

  test('the workspace and its plan say structured run output is on; the plan log is plain header lines, then JSON lines', async () => {
    assert.equal((await h.api('GET', `/api/v2/workspaces/${workspaceId}`)).body.data.attributes['structured-run-output-enabled'], true);
    const run = await h.createRun({}, { workspaceId });
    await h.clock.advance(60_000);
    assert.equal((await h.run(run)).attributes.actions['is-confirmable'], true, 'the plan is done and awaits confirmation');
    assert.equal((await h.api('GET', `/api/v2/runs/${run}/plan`)).body.data.attributes['structured-run-output-enabled'], true);
    const lines = await log(run, 'plan');
    assert.deepEqual(lines.slice(0, 3), ['Terraform v1.9.5', 'on linux_amd64', 'Initializing plugins and modules...']);
    const entries = jsonLines(lines);
    assert.equal(entries.length, lines.length - 3, 'every line after the header is JSON');
    assert.deepEqual(entries.map((e) => e.type), ['version', 'planned_change', 'planned_change', 'change_summary']);
    assert.deepEqual(entries.filter((e) => e.type === 'planned_change').map((e) => [e.change.resource.addr, e.change.action, e['@message']]), [
      ['aws_instance.web', 'create', 'aws_instance.web: Plan to create'],
      ['aws_subnet.main', 'create', 'aws_subnet.main: Plan to create'],
    ]);
    assert.equal(entries.at(-1)['@message'], 'Plan: 2 to add, 0 to change, 0 to destroy.');
    assert.deepEqual(entries.at(-1).changes, { add: 2, change: 0, import: 0, remove: 0, operation: 'plan' });
    assert.ok(!lines.join('\n').includes('from-default'), 'a sensitive value never reaches the log');

    const plan = await planJson(run, false);
    const web = plan.resource_changes.find((c: any) => c.address === 'aws_instance.web');
    assert.deepEqual(web.change.actions, ['create']);
    assert.equal(web.change.before, null);
    assert.deepEqual(web.change.after, { ami: 'ami-123', password: 'from-default' });
    assert.deepEqual(web.change.after_unknown, { id: true, subnet: true });
    assert.deepEqual(web.change.after_sensitive, { password: true });
    assert.deepEqual(plan.output_changes.ami, { actions: ['create'], before: null, after: 'ami-123', after_unknown: false, before_sensitive: false, after_sensitive: false });

    const redacted = await planJson(run, true);
    const redactedWeb = redacted.resource_changes.find((c: any) => c.address === 'aws_instance.web');
    assert.deepEqual(redactedWeb.change.after, { ami: 'ami-123', password: '(sensitive value)' }, 'the sensitive value is left out');
    assert.deepEqual(redactedWeb.change.after_sensitive, { password: true });
    assert.ok(!JSON.stringify(redacted).includes('from-default'));
    const schema = redacted.provider_schemas['registry.terraform.io/hashicorp/aws'].resource_schemas.aws_instance.block.attributes;
    assert.deepEqual(Object.keys(schema).sort(), ['ami', 'id', 'password', 'subnet']);

    await h.api('POST', `/api/v2/runs/${run}/actions/apply`);
    await h.clock.advance(60_000);
    assert.equal((await h.run(run)).attributes.status, 'applied');
    const applyEntries = jsonLines(await log(run, 'apply'));
    assert.deepEqual(applyEntries.filter((e) => e.type === 'apply_complete').map((e) => e['@message'].replace(/after \d+s/, 'after Ns').replace(/id=[\w-]+/, 'id=X')), [
      'aws_instance.web: Creation complete after Ns [id=X]',
      'aws_subnet.main: Creation complete after Ns [id=X]',
    ]);
    const summary = applyEntries.find((e) => e.type === 'change_summary');
    assert.equal(summary['@message'], 'Apply complete! Resources: 2 added, 0 changed, 0 destroyed.');
    assert.deepEqual(applyEntries.find((e) => e.type === 'outputs').outputs, { ami: { sensitive: false, type: 'string', value: 'ami-123' } });

    // The state the apply wrote holds the planned attributes, the unknown ones generated, the id the log named.
    const state = h.store.stateVersions.current(workspaceId)!.state!;
    const instance = (state.resources!.find((r) => r.type === 'aws_instance')!.instances![0] as any);
    assert.equal(instance.attributes.ami, 'ami-123');
    assert.match(instance.attributes.subnet, /^emulated-/);
    assert.deepEqual(instance.sensitive_attributes, [[{ type: 'get_attr', value: 'password' }]]);
    const created = applyEntries.find((e) => e.type === 'apply_complete' && e.hook.resource.addr === 'aws_instance.web');
    assert.equal(created.hook.id_value, instance.attributes.id);
  });

  test('a changed argument is an update in place: the plan JSON has the state\'s values before and the new ones after', async () => {
    const version = h.store.configurationVersions.get(h.store.workspace(workspaceId)!.latestConfigurationVersionId!)!;
    version.files = new Map([['main.tf', Buffer.from(configuration.replace('ami      = "ami-123"', 'ami      = "ami-456"'))]]);
    const run = await h.createRun({}, { workspaceId });
    await h.clock.advance(60_000);
    const plan = await planJson(run, false);
    // Every declared instance is listed, the unchanged ones as no-op with their state, as Terraform's plan JSON does.
    assert.deepEqual(plan.resource_changes.map((c: any) => [c.address, c.change.actions]), [['aws_instance.web', ['update']], ['aws_subnet.main', ['no-op']]]);
    const untouched = plan.resource_changes[1].change;
    assert.deepEqual(untouched.before, untouched.after);
    assert.equal(untouched.before.cidr, '10.0.0.0/24');
    const change = plan.resource_changes[0].change;
    assert.equal(change.before.ami, 'ami-123');
    assert.equal(change.after.ami, 'ami-456');
    assert.equal(change.after.id, change.before.id, 'an update keeps the id');
    assert.deepEqual(jsonLines(await log(run, 'plan')).filter((e) => e.type === 'planned_change').map((e) => e['@message']), ['aws_instance.web: Plan to update']);
    await h.api('POST', `/api/v2/runs/${run}/actions/discard`);
  });

  test('an errored plan reports no changes and says why in a diagnostic line', async () => {
    h.store.workspace(workspaceId)!.planOutcome.errors = true;
    const run = await h.createRun({}, { workspaceId });
    await h.clock.advance(60_000);
    const attributes = (await h.run(run)).attributes;
    assert.equal(attributes.status, 'errored');
    assert.equal(attributes['has-changes'], false);
    const diagnostic = jsonLines(await log(run, 'plan')).find((e) => e.type === 'diagnostic');
    assert.equal(diagnostic['@level'], 'error');
    assert.equal(diagnostic.diagnostic.summary, 'Invalid value for input variable');
    h.store.workspace(workspaceId)!.planOutcome.errors = false;
  });
});
