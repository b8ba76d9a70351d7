// The question every run action asks before anything is sent, whichever way it started (Runs view, palette, code
// lens, code action): which server commands are run actions, which of them confirm, and what a destroy run's apply says.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { RunSummary } from '../../server/src/protocol';
import { confirmationOf, runActionOfServerCommand, runActions } from '../../client/src/runs/actions/runActionDefinitions';

const workspace = { organization: 'acme', name: 'web' };
const run = (extra: Partial<RunSummary> = {}): RunSummary => ({
  id: 'run-1',
  status: 'planned',
  statusLabel: 'Needs confirmation',
  message: 'Scale up',
  actions: { isCancelable: false, isConfirmable: true, isDiscardable: true, isForceCancelable: false },
  ...extra,
});

describe('run action confirmation', () => {
  test('the destructive server commands a lens or code action carries are run actions; others are not', () => {
    for (const verb of ['applyRun', 'discardRun', 'cancelRun', 'forceCancelRun', 'forceExecuteRun'] as const) {
      assert.equal(runActionOfServerCommand(`hcpTerraform.server.${verb}`), runActions[verb], verb);
    }
    for (const command of ['hcpTerraform.server.queuePlan', 'hcpTerraform.server.createVariable', 'hcpTerraform.applyRun', 'hcpTerraform.server.toString', 'hcpTerraform.server.constructor']) {
      assert.equal(runActionOfServerCommand(command), undefined, command);
    }
  });

  test('apply, discard, force cancel and force execute ask a modal naming the run and workspace; cancel asks none', () => {
    for (const verb of ['applyRun', 'discardRun', 'forceCancelRun', 'forceExecuteRun'] as const) {
      const question = confirmationOf(runActions[verb], run(), workspace);
      assert.ok(question, `${verb} asks nothing`);
      assert.equal(question.message, `${runActions[verb].name} run "Scale up" (run-1) in acme/web?`);
      assert.equal(question.button, runActions[verb].name);
      assert.match(question.detail, /It is needs confirmation now\.$/);
    }
    assert.equal(confirmationOf(runActions.cancelRun, run(), workspace), undefined);
  });

  test('applying a plan says its changes reach real infrastructure', () => {
    const question = confirmationOf(runActions.applyRun, run(), workspace);
    assert.match(question!.detail, /^Its planned changes will be made to real infrastructure\./);
    assert.doesNotMatch(question!.detail, /destroy/i);
  });

  test('applying a destroy run says it destroys, with the count when the plan gave one', () => {
    const counted = confirmationOf(runActions.applyRun, run({ isDestroy: true, resourceDestructions: 3 }), workspace);
    assert.match(counted!.detail, /^This is a destroy run: applying it destroys 3 resources the workspace manages in real infrastructure\./);
    const one = confirmationOf(runActions.applyRun, run({ isDestroy: true, resourceDestructions: 1 }), workspace);
    assert.match(one!.detail, /destroys 1 resource the workspace manages/);
    const uncounted = confirmationOf(runActions.applyRun, run({ isDestroy: true }), workspace);
    assert.match(uncounted!.detail, /destroys every resource the workspace manages/);
  });

  test('a cancel accepted is told in a notification: the run stops later, and Force Cancel is the way out', () => {
    const now = Date.parse('2026-11-27T12:00:00Z');
    const planning = run({ status: 'planning', statusLabel: 'Planning', actions: { isCancelable: false, isConfirmable: false, isDiscardable: false, isForceCancelable: false }, forceCancelAvailableAt: '2026-11-27T12:01:05Z' });
    assert.equal(
      runActions.cancelRun.afterwards?.(planning, workspace, now),
      'HCP Terraform: asked run "Scale up" (run-1) in acme/web to cancel; it stops at its next safe point (now planning). If it does not stop, Force Cancel becomes possible in 1:05.',
    );
    assert.match(runActions.cancelRun.afterwards?.({ ...planning, forceCancelAvailableAt: undefined }, workspace, now) ?? '', /after a cool-off\.$/);
    assert.equal(runActions.cancelRun.afterwards?.({ ...planning, status: 'canceled', statusLabel: 'Canceled' }, workspace, now), 'HCP Terraform: run "Scale up" (run-1) in acme/web is canceled.');
    // The others are where they go once accepted: a status bar message is enough.
    for (const verb of ['applyRun', 'discardRun', 'forceCancelRun', 'forceExecuteRun'] as const) assert.equal(runActions[verb].afterwards, undefined, verb);
  });
});
