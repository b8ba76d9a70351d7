// Every state sequence of notes §4.7, driven over HTTP on a manual clock: what a client polling GET /runs/:id
// would see, down to the sparse status-timestamps in the order the states were reached.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, statesReached, type Harness, resetToPlainWorkspace } from './runs-harness';

const minute = 60_000;

describe('run state sequences (notes §4.7)', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());
  beforeEach(() => resetToPlainWorkspace(h));

  test('a fresh run is pending with only plan-queueable-at, then plans and waits for confirmation in cost_estimated', async () => {
    const id = await h.createRun();
    const fresh = await h.run(id);
    assert.equal(fresh.attributes.status, 'pending');
    assert.deepEqual(Object.keys(fresh.attributes['status-timestamps']), ['plan-queueable-at']);
    await h.clock.advance(minute);
    const paused = await h.run(id);
    // The premium organization has cost estimation, so the run pauses after the estimate.
    assert.deepEqual(statesReached(paused), ['queuing', 'plan-queued', 'planning', 'planned', 'cost-estimating', 'cost-estimated']);
    assert.equal(paused.attributes.status, 'cost_estimated');
    assert.equal(paused.attributes.actions['is-confirmable'], true);
    assert.equal(paused.attributes['has-changes'], true);
  });

  test('manual confirm: apply action → confirmed → apply_queued → applying → applied, with the apply finished', async () => {
    const id = await h.createRun();
    await h.clock.advance(minute);
    assert.equal((await h.api('POST', `/api/v2/runs/${id}/actions/apply`, { body: { comment: 'ship it' } })).status, 202);
    await h.clock.advance(minute);
    const run = await h.run(id);
    assert.equal(run.attributes.status, 'applied');
    assert.deepEqual(statesReached(run).slice(-4), ['confirmed', 'apply-queued', 'applying', 'applied']);
    assert.equal(run.relationships['confirmed-by'].data.id, h.people.owner.id);
    const apply = await h.api('GET', `/api/v2/runs/${id}/apply`);
    assert.equal(apply.body.data.attributes.status, 'finished');
    assert.equal(apply.body.data.attributes['resource-additions'], 2);
  });

  test('without cost estimation (free edition) the run pauses in planned', async () => {
    const id = await h.createRun({}, { workspaceId: h.freeWorkspace.id });
    await h.clock.advance(minute);
    const run = await h.run(id);
    assert.equal(run.attributes.status, 'planned');
    assert.deepEqual(statesReached(run), ['queuing', 'plan-queued', 'planning', 'planned']);
    assert.equal(run.relationships['cost-estimate'].data, null);
  });

  test('auto-apply from the workspace setting confirms by itself and applies', async () => {
    h.workspace.autoApply = true;
    const id = await h.createRun();
    await h.clock.advance(2 * minute);
    const run = await h.run(id);
    assert.equal(run.attributes['auto-apply'], true);
    assert.equal(run.attributes.status, 'applied');
    assert.ok(statesReached(run).includes('confirmed'));
    assert.equal(run.relationships['confirmed-by'].data, null);
  });

  test('auto-apply needs a queuer who may apply: a member\'s run pauses instead', async () => {
    h.workspace.autoApply = true;
    const id = await h.createRun({}, { token: 'member' });
    await h.clock.advance(2 * minute);
    const run = await h.run(id);
    assert.equal(run.attributes['auto-apply'], false);
    assert.equal(run.attributes.status, 'cost_estimated');
  });

  test('a plan-only run ends planned_and_finished and is never confirmable', async () => {
    const id = await h.createRun({ 'plan-only': true });
    await h.clock.advance(minute);
    const run = await h.run(id);
    assert.equal(run.attributes.status, 'planned_and_finished');
    assert.deepEqual(statesReached(run).slice(-2), ['cost-estimated', 'planned-and-finished']);
    assert.equal(run.attributes.actions['is-confirmable'], false);
    const apply = await h.api('GET', `/api/v2/runs/${id}/apply`);
    assert.equal(apply.body.data.attributes.status, 'unreachable');
  });

  test('a plan without changes goes straight from planned to planned_and_finished', async () => {
    h.workspace.planOutcome = { hasChanges: false, errors: false, resourceAdditions: 0, resourceChanges: 0, resourceDestructions: 0 };
    const id = await h.createRun();
    await h.clock.advance(minute);
    const run = await h.run(id);
    assert.deepEqual(statesReached(run), ['queuing', 'plan-queued', 'planning', 'planned', 'planned-and-finished']);
    assert.equal(run.attributes['has-changes'], false);
  });

  test('allow-empty-apply carries a change-less plan on to confirmation (empty_apply)', async () => {
    h.workspace.planOutcome = { hasChanges: false, errors: false, resourceAdditions: 0, resourceChanges: 0, resourceDestructions: 0 };
    const id = await h.createRun({ 'allow-empty-apply': true });
    await h.clock.advance(minute);
    assert.equal((await h.run(id)).attributes.status, 'cost_estimated');
  });

  test('a saved plan ends planned_and_saved, and applying it later runs the apply', async () => {
    const id = await h.createRun({ 'save-plan': true });
    await h.clock.advance(minute);
    const saved = await h.run(id);
    assert.equal(saved.attributes.status, 'planned_and_saved');
    assert.equal(saved.attributes.actions['is-confirmable'], true);
    assert.equal(h.workspace.lockedBy, null, 'a saved plan does not hold the workspace while it waits');
    assert.equal((await h.api('POST', `/api/v2/runs/${id}/actions/apply`)).status, 202);
    await h.clock.advance(minute);
    const applied = await h.run(id);
    assert.deepEqual(statesReached(applied).slice(-5), ['planned-and-saved', 'confirmed', 'apply-queued', 'applying', 'applied']);
  });

  test('a destroy run plans to destroy what earlier applies created', async () => {
    h.workspace.autoApply = true;
    await h.createRun();
    await h.clock.advance(2 * minute);
    h.workspace.autoApply = false;
    const id = await h.createRun({ 'is-destroy': true });
    await h.clock.advance(minute);
    const plan = await h.api('GET', `/api/v2/runs/${id}/plan`);
    assert.equal(plan.body.data.attributes['resource-destructions'], 2);
    assert.equal(plan.body.data.attributes['resource-additions'], 0);
    await h.api('POST', `/api/v2/runs/${id}/actions/apply`);
    await h.clock.advance(minute);
    assert.equal((await h.run(id)).attributes.status, 'applied');
    assert.deepEqual(h.store.stateVersions.current(h.workspace.id)?.state?.resources, [], 'the state it wrote holds nothing');
  });

  test('a refresh-only run changes no resources; with drift it waits for confirmation to update state', async () => {
    const id = await h.createRun({ 'refresh-only': true });
    await h.clock.advance(minute);
    const run = await h.run(id);
    assert.equal(run.attributes['refresh-only'], true);
    assert.equal(run.attributes.status, 'planned', 'refresh-only plans get no cost estimate');
    // None at all: an estimate left pending kept Terraform CLI's `apply -refresh-only` waiting for it.
    assert.equal(run.relationships['cost-estimate'].data, null);
    const plan = await h.api('GET', `/api/v2/runs/${id}/plan`);
    assert.equal(plan.body.data.attributes['resource-additions'], 0);
    h.workspace.planOutcome = { hasChanges: false, errors: false, resourceAdditions: 0, resourceChanges: 0, resourceDestructions: 0 };
    await h.api('POST', `/api/v2/runs/${id}/actions/discard`);
    const clean = await h.createRun({ 'refresh-only': true });
    await h.clock.advance(minute);
    assert.equal((await h.run(clean)).attributes.status, 'planned_and_finished');
  });

  test('a plan error ends the run errored with the plan errored', async () => {
    h.workspace.planOutcome = { ...h.workspace.planOutcome, errors: true };
    const id = await h.createRun();
    await h.clock.advance(minute);
    const run = await h.run(id);
    assert.deepEqual(statesReached(run), ['queuing', 'plan-queued', 'planning', 'errored']);
    assert.equal((await h.api('GET', `/api/v2/runs/${id}/plan`)).body.data.attributes.status, 'errored');
  });

  test('passing policy checks: cost_estimated → policy_checking → policy_checked, paused there', async () => {
    h.workspace.policySets = [{ name: 'tagging', enforcement: 'soft-mandatory', passes: true }];
    const id = await h.createRun();
    await h.clock.advance(minute);
    const run = await h.run(id);
    assert.deepEqual(statesReached(run).slice(-3), ['cost-estimated', 'policy-checking', 'policy-checked']);
    assert.equal(run.attributes.actions['is-confirmable'], true);
    const checks = await h.api('GET', `/api/v2/runs/${id}/policy-checks`);
    assert.equal(checks.body.data[0].attributes.status, 'passed');
  });

  test('soft-failed policy: policy_override blocks apply (409) until overridden, then policy_checked and apply', async () => {
    h.workspace.policySets = [{ name: 'cost-limit', enforcement: 'soft-mandatory', passes: false }];
    const id = await h.createRun();
    await h.clock.advance(minute);
    assert.equal((await h.run(id)).attributes.status, 'policy_override');
    assert.equal((await h.api('POST', `/api/v2/runs/${id}/actions/apply`)).status, 409);
    const checkId = (await h.run(id)).relationships['policy-checks'].data[0].id;
    // A member may not override (404), the owner may.
    assert.equal((await h.api('POST', `/api/v2/policy-checks/${checkId}/actions/override`, { token: 'member' })).status, 404);
    const override = await h.api('POST', `/api/v2/policy-checks/${checkId}/actions/override`);
    assert.equal(override.status, 200);
    assert.equal(override.body.data.attributes.status, 'overridden');
    await h.clock.advance(minute);
    assert.equal((await h.run(id)).attributes.status, 'policy_checked');
    assert.equal((await h.api('POST', `/api/v2/runs/${id}/actions/apply`)).status, 202);
    await h.clock.advance(minute);
    assert.equal((await h.run(id)).attributes.status, 'applied');
    assert.equal((await h.api('POST', `/api/v2/policy-checks/${checkId}/actions/override`)).status, 409);
  });

  test('an override makes the run confirmable before the call returns, as Terraform CLI reads it straight after', async () => {
    h.workspace.policySets = [{ name: 'cost-limit', enforcement: 'soft-mandatory', passes: false }];
    const id = await h.createRun();
    await h.clock.advance(minute);
    const checkId = (await h.run(id)).relationships['policy-checks'].data[0].id;
    assert.equal((await h.api('POST', `/api/v2/policy-checks/${checkId}/actions/override`)).status, 200);
    // No clock advance: the CLI's next GET comes milliseconds later and stops unless the run is confirmable.
    const run = await h.run(id);
    assert.equal(run.attributes.status, 'policy_checked');
    assert.equal(run.attributes.actions['is-confirmable'], true);
    assert.deepEqual(statesReached(run).slice(-2), ['policy-override', 'policy-checked']);
    assert.equal((await h.api('POST', `/api/v2/runs/${id}/actions/apply`)).status, 202);
  });

  test('a soft-failed policy on a plan-only run is final: policy_soft_failed', async () => {
    h.workspace.policySets = [{ name: 'cost-limit', enforcement: 'soft-mandatory', passes: false }];
    const id = await h.createRun({ 'plan-only': true });
    await h.clock.advance(minute);
    assert.equal((await h.run(id)).attributes.status, 'policy_soft_failed');
  });

  test('a hard-mandatory policy failure errors the run', async () => {
    h.workspace.policySets = [{ name: 'no-public-buckets', enforcement: 'hard-mandatory', passes: false }];
    const id = await h.createRun();
    await h.clock.advance(minute);
    const run = await h.run(id);
    assert.deepEqual(statesReached(run).slice(-2), ['policy-checking', 'errored']);
  });

  test('run tasks add pre-plan and post-plan stages; a failing mandatory task errors the run', async () => {
    h.workspace.runTasks = [
      { name: 'scan', stage: 'pre_plan', enforcement: 'mandatory', passes: true },
      { name: 'notify', stage: 'post_plan', enforcement: 'advisory', passes: false },
    ];
    const id = await h.createRun();
    await h.clock.advance(minute);
    const run = await h.run(id);
    assert.deepEqual(statesReached(run), [
      'pre-plan-running', 'pre-plan-completed', 'queuing', 'plan-queued', 'planning', 'planned',
      'post-plan-running', 'post-plan-completed', 'cost-estimating', 'cost-estimated',
    ]);
    const stages = await h.api('GET', `/api/v2/runs/${id}/task-stages`);
    // An advisory task that fails is reported on its result but does not fail the stage or the run.
    assert.deepEqual(stages.body.data.map((s: any) => [s.attributes.stage, s.attributes.status]), [['pre_plan', 'passed'], ['post_plan', 'passed']]);
    assert.equal(stages.body.data[1].attributes.results[0].passed, false);

    h.workspace.runTasks = [{ name: 'scan', stage: 'pre_plan', enforcement: 'mandatory', passes: false }];
    await h.api('POST', `/api/v2/runs/${id}/actions/discard`);
    const failing = await h.createRun();
    await h.clock.advance(minute);
    assert.deepEqual(statesReached(await h.run(failing)), ['pre-plan-running', 'errored']);
  });

  test('run tasks need the run-tasks feature: the free edition skips them', async () => {
    h.freeWorkspace.runTasks = [{ name: 'scan', stage: 'pre_plan', enforcement: 'mandatory', passes: false }];
    const id = await h.createRun({}, { workspaceId: h.freeWorkspace.id });
    await h.clock.advance(minute);
    assert.equal((await h.run(id)).attributes.status, 'planned');
    await h.api('POST', `/api/v2/runs/${id}/actions/discard`);
    h.freeWorkspace.runTasks = [];
  });

  test('a version from version control is fetched first (fetching → fetched)', async () => {
    const { workspace, version } = h.addWorkspace('vcs-app');
    version.ingress = { id: 'ia-test', branch: 'main', commitSha: 'abc123', commitMessage: 'Fix', senderUsername: 'octocat', identifier: 'acme/app' };
    const id = await h.createRun({}, { workspaceId: workspace.id });
    await h.clock.advance(minute);
    assert.deepEqual(statesReached(await h.run(id)).slice(0, 3), ['fetching', 'fetched', 'queuing']);
  });

  test('one active run per workspace: a second run stays pending until the first is done', async () => {
    const first = await h.createRun();
    const second = await h.createRun();
    await h.clock.advance(minute);
    assert.equal((await h.run(first)).attributes.status, 'cost_estimated');
    const waiting = await h.run(second);
    assert.equal(waiting.attributes.status, 'pending');
    assert.equal(waiting.attributes['position-in-queue'], 1);
    assert.deepEqual(h.workspace.lockedBy, { type: 'runs', id: first });
    await h.api('POST', `/api/v2/runs/${first}/actions/discard`);
    await h.clock.advance(minute);
    assert.equal((await h.run(second)).attributes.status, 'cost_estimated');
    assert.equal(h.workspace.currentRunId, second);
  });

  test('a confirmed saved plan queues for the workspace behind the run holding it', async () => {
    const saved = await h.createRun({ 'save-plan': true });
    await h.clock.advance(minute);
    const holder = await h.createRun();
    await h.clock.advance(minute);
    assert.equal((await h.api('POST', `/api/v2/runs/${saved}/actions/apply`)).status, 202);
    await h.clock.advance(minute);
    const waiting = await h.run(saved);
    assert.equal(waiting.attributes.status, 'confirmed');
    assert.equal(waiting.attributes['position-in-queue'], 1);
    await h.api('POST', `/api/v2/runs/${holder}/actions/discard`);
    await h.clock.advance(minute);
    assert.equal((await h.run(saved)).attributes.status, 'applied');
  });

  test('plan-only runs neither wait for nor hold the workspace', async () => {
    const holder = await h.createRun();
    const speculative = await h.createRun({ 'plan-only': true });
    await h.clock.advance(minute);
    assert.equal((await h.run(speculative)).attributes.status, 'planned_and_finished');
    assert.deepEqual(h.workspace.lockedBy, { type: 'runs', id: holder });
  });

  test('a user lock keeps runs pending until the runs engine hears the workspace was unlocked', async () => {
    h.workspace.lockedBy = { type: 'users', id: h.people.owner.id };
    const id = await h.createRun();
    await h.clock.advance(minute);
    assert.equal((await h.run(id)).attributes.status, 'pending');
    // Pending behind the lock, it is the workspace's current run (what Terraform CLI reads to say so).
    assert.equal(h.workspace.currentRunId, id);
    const second = await h.createRun();
    assert.equal(h.workspace.currentRunId, id, 'the first in line stays current');
    h.workspace.lockedBy = null;
    h.engine.workspaceChanged(h.workspace.id);
    await h.clock.advance(minute);
    assert.equal((await h.run(id)).attributes.status, 'cost_estimated');
    assert.equal((await h.run(second)).attributes.status, 'pending');
  });

  test('phases take realistic seconds: at 5 s the run is still queued, at 9.5 s it has planned', async () => {
    const id = await h.createRun();
    await h.clock.advance(5000);
    assert.equal((await h.run(id)).attributes.status, 'planning');
    await h.clock.advance(4500);
    assert.equal((await h.run(id)).attributes.status, 'planned');
  });

  test('an unknown status set on a run passes through the API untouched', async () => {
    const id = await h.createRun();
    h.engine.run(id)!.status = 'assessing_something_new';
    const run = await h.run(id);
    assert.equal(run.attributes.status, 'assessing_something_new');
    assert.equal(run.attributes.actions['is-confirmable'], false);
  });
});
