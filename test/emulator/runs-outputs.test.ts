// Configuration-driven runs and what they leave behind besides resources: outputs that read resources (planned
// against the state the plan leaves alone, saved by the apply), a new sensitive output in the redacted plan JSON,
// and the new id a replaced instance gets.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { configurationSteps } from './configurationRuns';
import { startHarness, type Harness } from './runs-harness';

const configuration = `
variable "name" { default = "x" }
variable "secret" {
  default   = "s3cr3t"
  sensitive = true
}
resource "terraform_data" "a" { input = var.name }
resource "terraform_data" "b" { count = 2 }
output "a" { value = terraform_data.a.output }
output "s" {
  value     = var.secret
  sensitive = true
}
`;

describe('configuration-driven runs: outputs and replacements', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ followConfiguration: true });
  });
  after(() => h.close());

  const { workspaceWith, upload, plan, apply, planJson } = configurationSteps(() => h);
  const state = (workspaceId: string) => h.store.stateVersions.current(workspaceId)!.state!;
  const stateId = (workspaceId: string, name: string, index?: number) =>
    (state(workspaceId).resources!.find((r) => r.name === name)!.instances!.find((i: any) => i.index_key === index) as any).attributes.id;

  test('an output reading a resource is saved by the apply, and a plan that leaves the resource alone shows no change', async () => {
    const workspaceId = workspaceWith('outputs', configuration);
    const first = await plan(workspaceId);
    assert.deepEqual((await planJson(first)).output_changes.a, { actions: ['create'], before: null, after: null, after_unknown: true, before_sensitive: false, after_sensitive: false });
    await apply(first);
    assert.deepEqual(state(workspaceId).outputs, { a: { value: 'x', type: 'string' }, s: { value: 's3cr3t', type: 'string', sensitive: true } });

    const second = await plan(workspaceId);
    assert.equal((await h.run(second)).attributes['has-changes'], false);
    const unchanged = (await planJson(second)).output_changes;
    assert.deepEqual(unchanged.a, { actions: ['no-op'], before: 'x', after: 'x', after_unknown: false, before_sensitive: false, after_sensitive: false });
    assert.deepEqual(unchanged.s.actions, ['no-op']);

    // Reading a resource the plan changes: known only after apply again.
    const third = await plan(workspaceId, { variables: [{ key: 'name', value: '"y"' }] });
    assert.deepEqual((await planJson(third)).output_changes.a, { actions: ['update'], before: 'x', after: null, after_unknown: true, before_sensitive: false, after_sensitive: false });
    await apply(third);
    assert.equal(state(workspaceId).outputs!.a!.value, 'y');
  });

  test('an output that stays unknown through the apply keeps the value it had', async () => {
    const workspaceId = workspaceWith('unknown-output', 'resource "terraform_data" "a" { input = 1 }\noutput "kept" { value = "v1" }\n');
    await apply(await plan(workspaceId));
    // A data source is read at apply: the output is unknown through the plan (declared, or the plan would fail).
    upload(workspaceId, 'resource "terraform_data" "a" { input = 2 }\ndata "terraform_remote_state" "x" { backend = "local" }\noutput "kept" { value = data.terraform_remote_state.x.outputs.id }\n');
    await apply(await plan(workspaceId));
    assert.deepEqual(state(workspaceId).outputs, { kept: { value: 'v1', type: 'string' } });
  });

  test('a new sensitive output is in the redacted plan JSON as Terraform writes it: sensitive on both sides, its value hidden but not null', async () => {
    const workspaceId = workspaceWith('sensitive-output', configuration);
    const run = await plan(workspaceId);
    const redacted = await planJson(run, true);
    // A null after would read as no change to the CLI's renderer, which would leave `+ s = (sensitive value)` out.
    assert.deepEqual(redacted.output_changes.s, { actions: ['create'], before: null, after: '(sensitive value)', after_unknown: false, before_sensitive: true, after_sensitive: true });
    assert.ok(!JSON.stringify(redacted).includes('s3cr3t'));
    assert.equal((await planJson(run)).output_changes.s.after, 's3cr3t', 'the unredacted document has the value');
    await apply(run);
    const changed = await plan(workspaceId, { variables: [{ key: 'secret', value: '"other"' }] });
    const update = (await planJson(changed, true)).output_changes.s;
    assert.deepEqual(update.actions, ['update']);
    assert.notEqual(update.before, update.after, 'a changed sensitive output still reads as a change');
  });

  test('an output reading a sensitive attribute is sensitive itself: saved marked so, never shown in the clear', async () => {
    const workspaceId = workspaceWith('secret-through-resource', `
variable "secret" {
  default   = "s3cr3t"
  sensitive = true
}
resource "terraform_data" "hidden" { input = var.secret }
output "leak" { value = terraform_data.hidden.output }
`);
    await apply(await plan(workspaceId));
    assert.deepEqual(state(workspaceId).outputs!.leak, { value: 's3cr3t', type: 'string', sensitive: true });
    const second = await plan(workspaceId);
    const redacted = await planJson(second, true);
    assert.ok(!JSON.stringify(redacted).includes('s3cr3t'), 'the redacted plan has no secret');
    assert.equal(redacted.output_changes.leak.after_sensitive, true);
  });

  test('a replaced instance gets a new id, the one the apply log names; the others keep theirs', async () => {
    const workspaceId = workspaceWith('replace', configuration);
    await apply(await plan(workspaceId));
    const [first, second] = [stateId(workspaceId, 'b', 0), stateId(workspaceId, 'b', 1)];
    const run = await plan(workspaceId, { 'replace-addrs': ['terraform_data.b[0]'] });
    await apply(run);
    assert.notEqual(stateId(workspaceId, 'b', 0), first);
    assert.equal(stateId(workspaceId, 'b', 1), second);
    const url = (await h.api('GET', `/api/v2/runs/${run}/apply`)).body.data.attributes['log-read-url'];
    const entries = (await (await fetch(url)).text()).split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line));
    const hooks = entries.filter((e) => e.type === 'apply_complete' || e.type === 'apply_start').map((e) => [e.hook.action, e.hook.id_value]);
    assert.deepEqual(hooks, [['delete', first], ['delete', undefined], ['create', undefined], ['create', stateId(workspaceId, 'b', 0)]]);
  });
});
