// showPlanOnCode on a run with no plan to show (its plan errored, it was canceled, it has not planned yet) fails with
// the reason, as commands report failures; it answered {folderUris: []} and said nothing, which reads as "no folder".
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ExecuteCommandRequest } from 'vscode-languageserver-protocol/node';
import { startEmulator, type RunningEmulator } from '../../emulator/src/index';
import type { Run } from '../../server/src/api';
import { whyNoPlanToShow } from '../../server/src/plans/planlessRuns';
import { startSession } from '../helpers/lspSession';

const run = (status: string, plannedAt?: string) =>
  ({ id: 'run-1', type: 'runs', attributes: { status, ...(plannedAt ? { 'status-timestamps': { 'planned-at': plannedAt } } : {}) }, relationships: {} }) as unknown as Run;

describe('whyNoPlanToShow', () => {
  test('says why per status; nothing once the plan finished (an apply that errored after planning keeps its plan)', () => {
    assert.match(whyNoPlanToShow(run('errored'))!, /^Run run-1 has no plan to show on the code: it errored before its plan finished\. The run's plan log says why\.$/);
    assert.match(whyNoPlanToShow(run('canceled'))!, /canceled before its plan finished/);
    assert.match(whyNoPlanToShow(run('discarded'))!, /discarded before its plan finished/);
    assert.match(whyNoPlanToShow(run('planning'))!, /has no plan to show on the code yet: its plan has not finished \(planning\)/);
    assert.equal(whyNoPlanToShow(run('errored', '2026-01-01T00:00:00Z')), undefined);
    assert.equal(whyNoPlanToShow(run('planned')), undefined);
  });
});

describe('over LSP', () => {
  let emulator: RunningEmulator;
  before(async () => {
    emulator = await startEmulator({ seed: 'demo', clock: 'manual' });
  });
  after(() => emulator.close());

  async function api<T>(pathAndQuery: string): Promise<T> {
    const response = await fetch(`${emulator.url}/api/v2${pathAndQuery}`, { headers: { authorization: `Bearer ${emulator.tokens.owner}`, accept: 'application/vnd.api+json' } });
    assert.equal(response.status, 200, pathAndQuery);
    return (await response.json()) as T;
  }

  test("the command fails saying the run's plan errored, instead of answering no folders", async () => {
    const workspace = await api<{ data: { id: string } }>('/organizations/acme-demo/workspaces/legacy-batch');
    const runs = await api<{ data: Array<{ id: string; attributes: { status: string } }> }>(`/workspaces/${workspace.data.id}/runs`);
    const errored = runs.data.find((candidate) => candidate.attributes.status === 'errored');
    assert.ok(errored, 'the demo seed has an errored legacy-batch run');
    const session = await startSession({ address: emulator.url, token: emulator.tokens.owner, settings: { workspace: { name: 'legacy-batch' } } });
    try {
      await session.waitFor<{ state: { kind: string } }>('hcpTerraform/workspaceChanged', (folder) => folder.state.kind === 'linked');
      const failure = await session.connection
        .sendRequest(ExecuteCommandRequest.type, { command: 'hcpTerraform.server.showPlanOnCode', arguments: [{ runId: errored.id }] })
        .then((result) => ({ result }), (error: Error) => ({ error }));
      assert.ok('error' in failure, `answered ${JSON.stringify(failure)}`);
      assert.match(failure.error.message, new RegExp(`Run ${errored.id} has no plan to show on the code: it errored before its plan finished`));
    } finally {
      await session.close();
    }
  });
});
