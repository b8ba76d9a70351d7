import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { provideCodeLenses, relativeTime } from '../../server/src/features/codeLens';
import { providePlanLenses } from '../../server/src/features/planLens';
import { serverCommandNames } from '../../server/src/commands';
import { demoFile, demoWorkspace, linkedSnapshot, loadDemoModel, run } from './helpers';

const now = Date.parse('2026-11-21T12:00:00Z');
const minutesAgo = (minutes: number) => new Date(now - minutes * 60_000).toISOString();

describe('code lens above the cloud block', () => {
  test('shows the current run with a readable status and age, and one lens per allowed action', async () => {
    const { model } = await loadDemoModel();
    const current = run('run-1', 'cost_estimated', { isConfirmable: true, isDiscardable: true }, { createdAt: minutesAgo(12), message: 'Scale to three instances' });
    const lenses = provideCodeLenses(model, linkedSnapshot(model, { runs: { current, awaitingConfirmation: current } }), demoFile('main.tf'), now);
    const cloudLine = model.serviceLink().block!.range.start.line;
    assert.ok(lenses.every((lens) => lens.range.start.line === cloudLine));
    assert.deepEqual(lenses.map((lens) => lens.command?.title), ['demo-app: Cost estimated · 12 minutes ago · Scale to three instances', 'Apply', 'Discard']);
    assert.deepEqual(lenses.slice(1).map((lens) => [lens.command?.command, lens.command?.arguments]), [
      ['hcpTerraform.server.applyRun', [{ hostname: demoWorkspace.hostname, runId: 'run-1' }]],
      ['hcpTerraform.server.discardRun', [{ hostname: demoWorkspace.hostname, runId: 'run-1' }]],
    ]);
    model.dispose();
  });

  test('passes an unknown status through, offers cancel / force cancel on a running run, and Queue plan when idle', async () => {
    const { model } = await loadDemoModel();
    const busy = run('run-2', 'warp_drive_engaged', { isCancelable: true, isForceCancelable: true }, { statusChangedAt: minutesAgo(180) });
    const running = provideCodeLenses(model, linkedSnapshot(model, { runs: { current: busy, active: busy } }), demoFile('main.tf'), now);
    assert.deepEqual(running.map((lens) => lens.command?.title), ['demo-app: Warp drive engaged · 3 hours ago', 'Cancel', 'Force cancel']);
    const done = run('run-3', 'applied', {}, { createdAt: minutesAgo(3 * 24 * 60) });
    const idle = provideCodeLenses(model, linkedSnapshot(model, { runs: { current: done } }), demoFile('main.tf'), now);
    assert.deepEqual(idle.map((lens) => lens.command?.title), ['demo-app: Applied · 3 days ago', 'Queue plan']);
    assert.equal(idle[1].command?.command, 'hcpTerraform.server.queuePlan');
    // A token that may not queue runs there (a reader's) gets the status, not a button that would fail.
    const reader = provideCodeLenses(model, linkedSnapshot(model, { runs: { current: done }, workspace: { kind: 'linked', workspace: { ...demoWorkspace, permissions: { canQueueRun: false } } } }), demoFile('main.tf'), now);
    assert.deepEqual(reader.map((lens) => lens.command?.title), ['demo-app: Applied · 3 days ago']);
    model.dispose();
  });

  test('actions on a run other than the current one say which run by its status, not by an id', async () => {
    const { model } = await loadDemoModel();
    const current = run('run-4', 'policy_checked', { isConfirmable: true, isDiscardable: true }, { createdAt: minutesAgo(10) });
    const queued = run('run-5', 'pending', { isDiscardable: true }, { createdAt: minutesAgo(2) });
    const lenses = provideCodeLenses(model, linkedSnapshot(model, { runs: { current, awaitingConfirmation: current, active: queued } }), demoFile('main.tf'), now);
    assert.deepEqual(lenses.map((lens) => lens.command?.title), ['demo-app: Policy checked · 10 minutes ago', 'Apply', 'Discard', 'Discard pending run']);
    assert.deepEqual(lenses[3].command?.arguments, [{ hostname: demoWorkspace.hostname, runId: 'run-5' }]);
    model.dispose();
  });

  test('only in the file with the cloud block; says why when the workspace is unknown', async () => {
    const { model } = await loadDemoModel();
    assert.deepEqual(provideCodeLenses(model, linkedSnapshot(model), demoFile('variables.tf'), now), []);
    const signedOut = provideCodeLenses(model, linkedSnapshot(model, { workspace: { kind: 'signed-out', hostname: 'app.terraform.io' } }), demoFile('main.tf'), now);
    assert.match(signedOut[0].command?.title ?? '', /sign in to app\.terraform\.io/);
    assert.equal(signedOut.length, 1);
    model.dispose();
  });

  test('text-only lenses carry a real command the server offers (showInfo), never an empty id', async () => {
    const { model } = await loadDemoModel();
    const states = [
      linkedSnapshot(model, { runs: { current: run('run-6', 'applied', {}, { createdAt: minutesAgo(1) }) } }),
      linkedSnapshot(model, { workspace: { kind: 'signed-out', hostname: 'app.terraform.io' } }),
      linkedSnapshot(model, { workspace: { kind: 'error', message: 'boom' } }),
      undefined,
    ];
    const lenses = states.flatMap((snapshot) => provideCodeLenses(model, snapshot, demoFile('main.tf'), now));
    const plan = providePlanLenses([{ overlay: { stale: false } as never, block: { address: 'a.b', range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } }, label: 'no changes', uri: 'file:///x.tf' } as never }]);
    for (const lens of [...lenses, ...plan]) {
      assert.ok(lens.command && serverCommandNames.includes(lens.command.command), `"${lens.command?.title}" has command "${lens.command?.command}"`);
    }
    assert.ok([...lenses, ...plan].some((lens) => lens.command?.command === 'hcpTerraform.server.showInfo'));
    model.dispose();
  });

  test('relative time reads naturally', () => {
    assert.equal(relativeTime(now - 10_000, now), 'just now');
    assert.equal(relativeTime(now - 60_000, now), '1 minute ago');
    assert.equal(relativeTime(now - 2 * 3600_000, now), '2 hours ago');
    assert.equal(relativeTime(Number.NaN, now), undefined);
  });
});
