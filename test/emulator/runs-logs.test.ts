// Plans, applies, cost estimates and their logs (notes §5): the log-read-url needs no token, grows while the
// phase runs, is framed STX … ETX, honours offset/limit, and reads like terraform output.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from './runs-harness';

const STX = '\u0002';
const ETX = '\u0003';

describe('plans, applies, cost estimates and logs', () => {
  let h: Harness;
  let runId: string;
  let plan: any;

  const readLog = async (url: string, query = '') => {
    // No Authorization header: blob URLs carry their own secret, like the service's.
    const response = await fetch(`${url}${query}`);
    return { status: response.status, text: await response.text() };
  };

  before(async () => {
    h = await startHarness({ followConfiguration: true });
    // These tests read the plain-text logs of a workspace with structured run output off (runs-structured-logs
    // covers the JSON lines the service writes when it is on, its default).
    const patched = await h.api('PATCH', `/api/v2/workspaces/${h.workspace.id}`, { body: { data: { type: 'workspaces', attributes: { 'structured-run-output-enabled': false } } } });
    assert.equal(patched.status, 200);
    assert.equal(patched.body.data.attributes['structured-run-output-enabled'], false);
    runId = await h.createRun({ variables: [{ key: 'db_password', value: '"hunter2-run"' }] });
    await h.clock.advance(3000); // plan_queued (2 s – 3.5 s): the plan has not started yet
    plan = (await h.api('GET', `/api/v2/runs/${runId}/plan`)).body.data;
  });
  after(() => h.close());

  test('the plan is reachable by id and through the run, with an absolute log-read-url', async () => {
    const byId = await h.api('GET', `/api/v2/plans/${plan.id}`);
    assert.equal(byId.status, 200);
    assert.equal(byId.body.data.id, plan.id);
    assert.equal(plan.attributes.status, 'queued');
    assert.ok(plan.attributes['log-read-url'].startsWith(`${h.url}/`));
    assert.equal((await h.api('GET', '/api/v2/plans/plan-nothere000000000')).status, 404);
    assert.equal((await h.api('GET', `/api/v2/plans/${plan.id}`, { token: 'not-a-token' })).status, 401);
  });

  test('the log grows while planning and ends with ETX once the plan is finished', async () => {
    const url = plan.attributes['log-read-url'];
    assert.equal((await readLog(url)).text, '', 'nothing before the plan starts');
    await h.clock.advance(2500); // planning for 2 s of 6 s
    const early = await readLog(url);
    assert.equal(early.status, 200);
    assert.ok(early.text.startsWith(STX));
    assert.ok(!early.text.endsWith(ETX));
    await h.clock.advance(3000);
    const later = await readLog(url);
    assert.ok(later.text.length > early.text.length, 'more output later');
    assert.ok(later.text.startsWith(early.text), 'earlier output never changes');
    await h.clock.advance(60_000);
    const done = await readLog(url);
    assert.ok(done.text.endsWith(ETX));
    assert.match(done.text, /Terraform v1\.9\.5/);
    assert.match(done.text, /# aws_instance\.web will be created/);
    assert.match(done.text, /\+ ami += "ami-123"/, 'the attributes the configuration gives');
    assert.match(done.text, /\+ id += \(known after apply\)/);
    assert.match(done.text, /# aws_s3_bucket\.assets will be created/);
    assert.match(done.text, /Plan: 2 to add, 0 to change, 0 to destroy\./);
    assert.match(done.text, /Run variables set: db_password/);
    assert.ok(!done.text.includes('hunter2-run'), 'run variable values never reach the log');
  });

  test('offset and limit are byte ranges over the framed text; a bad value is a 422', async () => {
    const url = plan.attributes['log-read-url'];
    const whole = Buffer.from((await readLog(url)).text, 'utf8');
    const part = await readLog(url, '?offset=1&limit=11');
    assert.equal(part.text, whole.subarray(1, 12).toString('utf8'));
    assert.equal((await readLog(url, `?offset=${whole.length}`)).text, '');
    const bad = await fetch(`${url}?limit=lots`);
    assert.equal(bad.status, 422);
    assert.equal((await fetch(`${h.url}/_archivist/v1/object/not-a-secret`)).status, 404);
  });

  test('the finished plan reports its counts; the cost estimate is finished with decimal-string costs', async () => {
    const finished = (await h.api('GET', `/api/v2/plans/${plan.id}`)).body.data.attributes;
    assert.equal(finished.status, 'finished');
    assert.equal(finished['has-changes'], true);
    assert.deepEqual([finished['resource-additions'], finished['resource-changes'], finished['resource-destructions']], [2, 0, 0]);
    const run = await h.run(runId);
    const estimateId = run.relationships['cost-estimate'].data.id;
    const estimate = (await h.api('GET', `/api/v2/cost-estimates/${estimateId}`)).body.data;
    assert.equal(estimate.type, 'cost-estimates');
    assert.equal(estimate.attributes.status, 'finished');
    assert.match(estimate.attributes['delta-monthly-cost'], /^-?\d+\.\d{3}$/);
    assert.equal((await h.api('GET', `/api/v2/runs/${runId}/cost-estimate`)).body.data.id, estimateId);
  });

  test('plan JSON output: 204 until finished elsewhere, then 307 to a blob with the resource changes; not for organization tokens', async () => {
    const queued = await h.createRun({ 'plan-only': true });
    assert.equal((await h.api('GET', `/api/v2/runs/${queued}/plan/json-output`)).status, 204);
    const redirect = await fetch(`${h.url}/api/v2/plans/${plan.id}/json-output`, {
      headers: { Authorization: `Bearer ${h.tokens.owner}` },
      redirect: 'manual',
    });
    assert.equal(redirect.status, 307);
    const location = redirect.headers.get('location')!;
    const document: any = await (await fetch(location)).json();
    assert.deepEqual(
      document.resource_changes.map((c: any) => [c.address, c.change.actions]),
      [['aws_instance.web', ['create']], ['aws_s3_bucket.assets', ['create']]],
    );
    assert.equal((await h.api('GET', `/api/v2/plans/${plan.id}/json-output`, { token: 'organization' })).status, 404);
  });

  test('the apply log follows the apply and ends with the "Apply complete!" summary', async () => {
    await h.api('POST', `/api/v2/runs/${runId}/actions/apply`);
    const apply = (await h.api('GET', `/api/v2/runs/${runId}/apply`)).body.data;
    assert.equal((await h.api('GET', `/api/v2/applies/${apply.id}`)).body.data.id, apply.id);
    await h.clock.advance(60_000);
    const log = await readLog(apply.attributes['log-read-url']);
    assert.ok(log.text.startsWith(STX) && log.text.endsWith(ETX));
    assert.match(log.text, /aws_instance\.web: Creation complete after \d+s/);
    assert.match(log.text, /Apply complete! Resources: 2 added, 0 changed, 0 destroyed\./);
  });

  test('a run that never applies has an unreachable apply whose log is just STX ETX', async () => {
    const id = await h.createRun({ 'plan-only': true });
    await h.clock.advance(60_000);
    const apply = (await h.api('GET', `/api/v2/runs/${id}/apply`)).body.data;
    assert.equal(apply.attributes.status, 'unreachable');
    assert.equal((await readLog(apply.attributes['log-read-url'])).text, `${STX}${ETX}`);
  });

  test('every related link a run advertises answers 200', async () => {
    const run = await h.run(runId);
    const links = Object.entries(run.relationships as Record<string, any>)
      .filter(([, relationship]) => relationship.links?.related)
      .map(([name, relationship]) => [name, relationship.links.related as string]);
    assert.ok(links.length >= 10);
    for (const [name, link] of links) {
      const result = await h.api('GET', link);
      assert.equal(result.status, 200, `${name}: ${link}`);
    }
    const creator = await h.api('GET', `/api/v2/runs/${runId}/created-by`);
    assert.equal(creator.body.data.attributes.username, 'olivia-owner');
  });

  test('an interrupted plan says so in its log', async () => {
    const id = await h.createRun();
    await h.clock.advance(7000);
    await h.api('POST', `/api/v2/runs/${id}/actions/cancel`);
    await h.clock.advance(10_000);
    const log = (await h.api('GET', `/api/v2/runs/${id}/plan`)).body.data.attributes['log-read-url'];
    assert.match((await readLog(log)).text, /Interrupt received\./);
  });
});
