// The runs module's pure parts: the state machine's order, plan changes against state, HCL-literal checks.
import { before, describe, test } from 'node:test';
import { loadTerraformParser, type TerraformParser } from '../../server/src/model';
import assert from 'node:assert/strict';
import { nextStatus, noTasks, isPausedForConfirmation, type RunPath } from '../../emulator/src/runs/phases';
import { countChanges, declaredResourceAddresses, plannedChanges } from '../../emulator/src/runs/changes';
import { isHclLiteral } from '../../emulator/src/engine/hclValue';
import { inStatusGroup, timestampKey } from '../../emulator/src/runs/statuses';

const basePath: RunPath = {
  fetchesFromVcs: false,
  prePlanTasks: noTasks,
  postPlanTasks: noTasks,
  preApplyTasks: noTasks,
  postApplyTasks: noTasks,
  planErrors: false,
  hasChanges: true,
  costEstimation: false,
  policy: 'none',
  planOnly: false,
  savePlan: false,
  allowEmptyApply: false,
  autoApply: false,
  policyOverridden: false,
  confirmed: false,
};

/** Follows nextStatus from pending until the run rests. */
function walk(path: Partial<RunPath>): string[] {
  const full = { ...basePath, ...path };
  const seen: string[] = [];
  let status: string | undefined = 'pending';
  while (status !== undefined && seen.length < 40) {
    seen.push(status);
    status = nextStatus(status, full);
  }
  return seen;
}

let parser: TerraformParser;
before(async () => {
  parser = await loadTerraformParser();
});

describe('run state machine (pure)', () => {
  test('every bracketed phase of notes §4.7 in order, ending at apply', () => {
    assert.deepEqual(
      walk({
        fetchesFromVcs: true,
        prePlanTasks: { present: true, fails: false },
        postPlanTasks: { present: true, fails: false },
        preApplyTasks: { present: true, fails: false },
        postApplyTasks: { present: true, fails: false },
        costEstimation: true,
        policy: 'passed',
        autoApply: true,
      }),
      [
        'pending', 'fetching', 'fetching_completed', 'pre_plan_running', 'pre_plan_completed', 'queuing', 'plan_queued',
        'planning', 'planned', 'post_plan_running', 'post_plan_completed', 'cost_estimating', 'cost_estimated',
        'policy_checking', 'policy_checked', 'confirmed', 'pre_apply_running', 'pre_apply_completed', 'apply_queued',
        'applying', 'post_apply_running', 'post_apply_completed', 'applied',
      ],
    );
  });

  test('the run rests in the last pre-apply state reached, and only there is it paused for confirmation', () => {
    assert.equal(walk({}).at(-1), 'planned');
    assert.equal(walk({ postPlanTasks: { present: true, fails: false } }).at(-1), 'post_plan_completed');
    assert.equal(walk({ costEstimation: true }).at(-1), 'cost_estimated');
    assert.equal(walk({ costEstimation: true, policy: 'passed' }).at(-1), 'policy_checked');
    assert.equal(isPausedForConfirmation('planned', { ...basePath, costEstimation: true }), false, 'planned is a waypoint here');
    assert.equal(isPausedForConfirmation('cost_estimated', { ...basePath, costEstimation: true }), true);
  });

  test('endings: no changes, plan-only, saved plan, soft and hard policy failures, failing tasks, plan errors', () => {
    assert.equal(walk({ hasChanges: false }).at(-1), 'planned_and_finished');
    assert.equal(walk({ hasChanges: false, allowEmptyApply: true }).at(-1), 'planned');
    assert.equal(walk({ planOnly: true, costEstimation: true }).at(-1), 'planned_and_finished');
    assert.equal(walk({ savePlan: true }).at(-1), 'planned_and_saved');
    assert.equal(walk({ policy: 'soft_failed' }).at(-1), 'policy_override');
    assert.equal(walk({ policy: 'soft_failed', policyOverridden: true }).at(-1), 'policy_checked');
    assert.equal(walk({ policy: 'soft_failed', planOnly: true }).at(-1), 'policy_soft_failed');
    assert.equal(walk({ policy: 'hard_failed' }).at(-1), 'errored');
    assert.deepEqual(walk({ prePlanTasks: { present: true, fails: true } }).slice(-2), ['pre_plan_running', 'errored']);
    assert.deepEqual(walk({ planErrors: true }).slice(-2), ['planning', 'errored']);
  });

  test('unknown and final statuses go nowhere', () => {
    assert.equal(nextStatus('some_future_state', basePath), undefined);
    assert.equal(nextStatus('applied', basePath), undefined);
    assert.equal(inStatusGroup('some_future_state', 'non_final'), true);
    assert.equal(inStatusGroup('some_future_state', 'discardable'), false);
  });

  test('status-timestamp keys', () => {
    assert.equal(timestampKey('planned_and_finished'), 'planned-and-finished-at');
    assert.equal(timestampKey('fetching_completed'), 'fetched-at');
  });
});

describe('plan changes', () => {
  const outcome = { hasChanges: true, errors: false, resourceAdditions: 2, resourceChanges: 1, resourceDestructions: 1 };
  const run = { isDestroy: false, refreshOnly: false, targetAddrs: null, replaceAddrs: null };
  const declared = ['aws_instance.web', 'aws_s3_bucket.assets', 'aws_iam_role.app'];

  test('a first plan only creates, naming resources the configuration declares', () => {
    const changes = plannedChanges({ run, outcome, declared, managed: [] });
    assert.deepEqual(changes, [
      { address: 'aws_instance.web', action: 'create' },
      { address: 'aws_s3_bucket.assets', action: 'create' },
    ]);
  });

  test('updates and destructions touch only what is in state; creations never collide with it', () => {
    const managed = ['aws_instance.web', 'aws_s3_bucket.assets'];
    const changes = plannedChanges({ run, outcome, declared, managed });
    assert.deepEqual(countChanges(changes), { additions: 2, changes: 1, destructions: 1 });
    for (const change of changes.filter((c) => c.action === 'create')) assert.ok(!managed.includes(change.address));
  });

  test('destroy plans destroy the state; targets and replacements narrow and reshape a plan', () => {
    const managed = ['aws_instance.web', 'aws_s3_bucket.assets'];
    assert.deepEqual(countChanges(plannedChanges({ run: { ...run, isDestroy: true }, outcome, declared, managed })), { additions: 0, changes: 0, destructions: 2 });
    const targeted = plannedChanges({ run: { ...run, targetAddrs: ['aws_s3_bucket.assets'] }, outcome, declared, managed: [] });
    assert.deepEqual(targeted, [{ address: 'aws_s3_bucket.assets', action: 'create' }]);
    assert.deepEqual(plannedChanges({ run: { ...run, targetAddrs: ['module.network'] }, outcome, declared, managed: [] }), []);
    const replaced = plannedChanges({ run: { ...run, replaceAddrs: ['aws_instance.web'] }, outcome: { ...outcome, hasChanges: false }, declared, managed });
    assert.deepEqual(replaced, [{ address: 'aws_instance.web', action: 'replace' }]);
  });

  test('resource declarations are read from .tf files only', () => {
    const files = new Map([
      ['main.tf', Buffer.from('resource "aws_instance" "web" {\n}\n  resource "null_resource" "x" {}\n')],
      ['notes.md', Buffer.from('resource "fake" "one" {}')],
    ]);
    assert.deepEqual(declaredResourceAddresses(parser, files), ['aws_instance.web', 'null_resource.x']);
    const tricky = new Map([['main.tf', Buffer.from('# resource "commented" "out" {}\ndata "aws_ami" "x" {}\nresource aws_s3_bucket logs {}\n')]]);
    assert.deepEqual(declaredResourceAddresses(parser, tricky), ['aws_s3_bucket.logs'], 'comments and data sources are not resources; bare labels are');
  });
});

describe('HCL literals (run variables)', () => {
  test('accepts literals', () => {
    for (const value of ['"text"', '"with \\"escape\\""', '42', '-1.5e3', 'true', 'null', '[]', '["a", 1, [true]]', '{ a = 1, "b" = "x" }', '{\n a = 1\n b = [2]\n}', '"cost $${amount}"', '"100%%{x}"']) {
      assert.equal(isHclLiteral(parser, value), true, value);
    }
  });
  test('rejects expressions, bare words and broken syntax', () => {
    for (const value of ['text', 'var.x', '"${var.x}"', '"%{ if x }"', 'upper("x")', '[1,', '{ a = }', '"open', '1 + 2', '', '"a"\nb = 1', '# only a comment']) {
      assert.equal(isHclLiteral(parser, value), false, value);
    }
  });
});
