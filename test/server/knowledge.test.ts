// What a workspace's knowledge shows the features: current / awaiting confirmation / active runs, change
// detection that ignores unchanged polls, and variables without sensitive values.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Run, Variable } from '../../server/src/api';
import { snapshotVariable, WorkspaceKnowledge } from '../../server/src/workspaces/knowledge';

function run(id: string, status: string, createdAt: string, actions: Record<string, boolean> = {}): Run {
  return { id, type: 'runs', attributes: { status, 'created-at': createdAt, actions } } as Run;
}

describe('WorkspaceKnowledge', () => {
  const target = { hostname: 'app.terraform.io', organization: 'acme', name: 'app' };

  test('picks the current run, the newest run awaiting confirmation and the newest active run', () => {
    const knowledge = new WorkspaceKnowledge(target);
    assert.equal(knowledge.runs(), undefined, 'unknown until a list or the current run arrives');
    knowledge.recordRuns(
      [
        run('run-old', 'applied', '2026-01-01T00:00:00Z'),
        run('run-pending', 'pending', '2026-01-03T00:00:00Z', { 'is-discardable': true }),
        run('run-planned', 'planned', '2026-01-02T00:00:00Z', { 'is-confirmable': true, 'is-discardable': true }),
        run('run-planning', 'planning', '2026-01-02T12:00:00Z', { 'is-cancelable': true }),
        run('run-strange', 'warp_drive_engaged', '2026-01-04T00:00:00Z'),
      ],
      true,
    );
    knowledge.currentRunId = 'run-planned';
    knowledge.changed();
    const runs = knowledge.runs()!;
    assert.equal(runs.current?.id, 'run-planned');
    assert.equal(runs.awaitingConfirmation?.id, 'run-planned', 'a pending run is queued, not awaiting confirmation');
    assert.equal(runs.active?.id, 'run-planning');
    assert.equal(runs.awaitingConfirmation?.actions.isConfirmable, true);
    assert.equal(knowledge.runs(), runs, 'the same object until something changes');
  });

  test('an unchanged poll changes nothing; a new status or new flags do', () => {
    const knowledge = new WorkspaceKnowledge(target);
    assert.equal(knowledge.recordRuns([run('run-1', 'planning', '2026-01-01T00:00:00Z', { 'is-cancelable': true })], true), true);
    const version = knowledge.version;
    assert.equal(knowledge.recordRuns([run('run-1', 'planning', '2026-01-01T00:00:00Z', { 'is-cancelable': true })], true), false);
    assert.equal(knowledge.version, version);
    assert.equal(knowledge.recordRuns([run('run-1', 'planned', '2026-01-01T00:00:00Z', { 'is-confirmable': true })], false), true);
    assert.ok(knowledge.version > version);
    assert.equal(knowledge.runs()?.awaitingConfirmation?.status, 'planned');
  });

  test('a sensitive variable never carries its value into a snapshot', () => {
    const variable = (attributes: Record<string, unknown>) => ({ id: 'var-1', type: 'vars', attributes }) as unknown as Variable;
    assert.deepEqual(snapshotVariable(variable({ key: 'password', value: 'hunter2', category: 'engine', sensitive: true, hcl: false })), {
      id: 'var-1',
      key: 'password',
      category: 'engine',
      hcl: false,
      sensitive: true,
    });
    assert.equal(snapshotVariable(variable({ key: 'region', value: 'eu', category: 'engine' })).value, 'eu');
    assert.equal(snapshotVariable(variable({ key: 'x', value: '1', category: 'policy-set' })).category, 'policy-set', 'unknown categories pass through');
  });
});
