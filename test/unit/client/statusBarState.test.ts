import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { LinkedFolder, RunSummary } from '../../../server/src/protocol';
import { currentRunAfterChange, folderForFile, runIcon, statusBarView } from '../../../client/src/statusBarState';

const workspace = { id: 'ws-app', name: 'demo-app', organization: 'acme', hostname: 'app.terraform.io' };

function linked(folderUri: string, id = 'ws-app', name = 'demo-app'): LinkedFolder {
  return { folderUri, mechanism: 'cloud', problems: [], signedIn: true, state: { kind: 'linked', workspace: { ...workspace, id, name } } };
}
function unlinked(folderUri: string): LinkedFolder {
  return { folderUri, mechanism: 'none', problems: [], signedIn: true, state: { kind: 'not-linked' } };
}
function run(id: string, status: string, extra: Partial<RunSummary> = {}): RunSummary {
  const confirmable = ['planned', 'cost_estimated', 'policy_checked', 'policy_override'].includes(status);
  return {
    id,
    status,
    statusLabel: status,
    actions: { isCancelable: false, isConfirmable: confirmable, isDiscardable: confirmable, isForceCancelable: false },
    ...extra,
  };
}

describe('which folder the status bar shows', () => {
  const folders = [linked('file:///w/infra', 'ws-infra', 'infra'), linked('file:///w/infra/app'), unlinked('file:///w/infra/modules/net')];

  test('the deepest linked folder containing the active file', () => {
    assert.equal(folderForFile('file:///w/infra/app/main.tf', folders)?.folderUri, 'file:///w/infra/app');
    assert.equal(folderForFile('file:///w/infra/variables.tf', folders)?.folderUri, 'file:///w/infra');
  });

  test('a prefix of a folder name is not containment', () => {
    assert.equal(folderForFile('file:///w/infra-old/main.tf', folders), undefined);
  });

  test('hidden for a file in a folder with no workspace, or outside every folder', () => {
    assert.equal(folderForFile('file:///w/infra/modules/net/main.tf', folders), undefined);
    assert.equal(folderForFile('file:///elsewhere/main.tf', folders), undefined);
  });

  test('encoded and plain URIs of the same path match', () => {
    assert.equal(folderForFile('file:///w/my%20infra/main.tf', [linked('file:///w/my infra')])?.folderUri, 'file:///w/my infra');
  });

  test('without an editor: the only linked folder, or none when there are several', () => {
    assert.equal(folderForFile(undefined, [linked('file:///w/a'), unlinked('file:///w/b')])?.folderUri, 'file:///w/a');
    assert.equal(folderForFile(undefined, folders), undefined);
  });
});

describe('the current run after a change', () => {
  const current = run('run-1', 'planning', { createdAt: '2026-01-01T10:00:00Z' });

  test('the same run takes its new state', () => {
    assert.equal(currentRunAfterChange(current, [run('run-1', 'planned')])?.status, 'planned');
  });

  test('a newer run becomes current', () => {
    const finished = run('run-1', 'applied', { createdAt: '2026-01-01T10:00:00Z' });
    assert.equal(currentRunAfterChange(finished, [run('run-2', 'planning', { createdAt: '2026-01-01T11:00:00Z' })])?.id, 'run-2');
  });

  test('an older run changing does not replace it', () => {
    assert.equal(currentRunAfterChange(current, [run('run-0', 'discarded', { createdAt: '2026-01-01T09:00:00Z' })])?.id, 'run-1');
  });

  test('a newer run pending behind the active one does not replace it, but does once that one is final', () => {
    const pending = run('run-2', 'pending', { createdAt: '2026-01-01T11:00:00Z' });
    assert.equal(currentRunAfterChange(current, [pending])?.id, 'run-1');
    assert.equal(currentRunAfterChange(run('run-1', 'applied', { createdAt: '2026-01-01T10:00:00Z' }), [pending])?.id, 'run-2');
  });

  test('the first run of a workspace without one becomes current', () => {
    assert.equal(currentRunAfterChange(undefined, [run('run-9', 'pending')])?.id, 'run-9');
  });
});

describe('the item\'s text, icon and tooltip', () => {
  test('an icon per state', () => {
    assert.equal(runIcon(run('r', 'planning')), 'sync~spin');
    assert.equal(runIcon(run('r', 'applying')), 'sync~spin');
    assert.equal(runIcon(run('r', 'policy_checked')), 'warning');
    assert.equal(runIcon(run('r', 'errored')), 'error');
    assert.equal(runIcon(run('r', 'applied')), 'check');
    assert.equal(runIcon(run('r', 'discarded')), 'cloud');
    assert.equal(runIcon(run('r', 'planned_and_finished')), 'cloud');
    // A planned run the caller may not confirm is waiting, not running.
    assert.equal(runIcon({ ...run('r', 'planned'), actions: { isCancelable: false, isConfirmable: false, isDiscardable: false, isForceCancelable: false } }), 'cloud');
  });

  test('names the workspace and the state label; the tooltip has the message and org/workspace', () => {
    const view = statusBarView(workspace, run('run-1', 'policy_checked', { statusLabel: 'Policy checked', message: 'Add a bucket\nwith details' }));
    assert.equal(view.text, '$(warning) demo-app: Policy checked');
    assert.match(view.tooltip, /^Add a bucket\n/);
    assert.ok(view.tooltip.includes('acme/demo-app'));
    assert.equal(view.run?.id, 'run-1');
  });

  test('a workspace without runs offers to queue one', () => {
    const view = statusBarView(workspace, undefined);
    assert.equal(view.text, '$(cloud) demo-app: no runs');
    assert.equal(view.run, undefined);
  });
});
