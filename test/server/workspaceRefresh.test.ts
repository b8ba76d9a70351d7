// The minute's refresh of a linked workspace tells its listeners only what changed: a refresh that finds the
// workspace, its variables and its organization's features as they were tells nothing (each "changed" re-sends the
// folder's diagnostics and a hcpTerraform/workspaceChanged to the editor); a variable changed on the service is told,
// as the new value. On the emulator's demo seed, with simulated time.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ServiceClient } from '../../server/src/api';
import { WorkspaceDirectory } from '../../server/src/workspaces/directory';
import type { RunWatcher } from '../../server/src/workspaces/runWatcher';
import { startEmulator, type RunningEmulator } from '../../emulator/src/index';
import { untilTurns as until } from '../helpers/eventLoopTurns';
import { ManualClock } from '../helpers/manualClock';
import { signedInHosts } from '../helpers/signedInHosts';

describe('the workspace refresh', () => {
  let emulator: RunningEmulator;
  let hostname: string;
  before(async () => {
    emulator = await startEmulator({ seed: 'demo', clock: 'manual' });
    hostname = new URL(emulator.url).host;
  });
  after(() => emulator.close());

  test('a refresh that finds nothing new tells nothing; a variable changed on the service is told once, with its value', async () => {
    const clock = new ManualClock(emulator.control.now().getTime());
    const { hosts } = signedInHosts(emulator.url, emulator.tokens.owner, clock);
    // The run watcher is not what is measured here: its own timers would share the clock.
    const watcher = { watchWorkspace: () => undefined, unwatchWorkspace: () => undefined } as unknown as RunWatcher;
    let changes = 0;
    const workspaces = new WorkspaceDirectory({ hosts, watcher, timers: clock, log: () => undefined, onChanged: () => changes++, onSignInNeeded: () => undefined });
    const api = new ServiceClient({ address: emulator.url, token: emulator.tokens.team });
    const variableReads = () => emulator.control.requests().filter((request) => request.method === 'GET' && request.path.startsWith('/api/v2/vars')).length;
    /** One minute on: the refresh runs, and has ended once the next one is scheduled (the only timer here). */
    const refresh = async () => {
      const reads = variableReads();
      await clock.advance(60_000);
      await until(() => (variableReads() > reads && clock.pendingTimers() === 1 ? true : undefined));
    };
    try {
      const knowledge = workspaces.acquire({ hostname, organization: 'acme-demo', name: 'demo-app' });
      await until(() => (knowledge.state.kind === 'linked' && knowledge.variables && knowledge.featureSet !== undefined && clock.pendingTimers() === 1 ? true : undefined));
      assert.ok(changes > 0, 'the first read was told');
      const variablesBefore = knowledge.variables;

      changes = 0;
      await refresh();
      assert.equal(changes, 0, 'an unchanged workspace was told as changed');
      assert.equal(knowledge.variables, variablesBefore, 'the same variables, the same array');

      const region = (await api.variables.list({ organization: 'acme-demo', workspace: 'demo-app' })).find((variable) => variable.attributes.key === 'region')!;
      await api.variables.update(region.id, { value: '"eu-north-1"' });
      await refresh();
      assert.equal(changes, 1, 'a changed variable is told once');
      assert.equal(knowledge.variables?.find((variable) => variable.key === 'region')?.value, '"eu-north-1"');
    } finally {
      workspaces.dispose();
      await api.close();
      await hosts.dispose();
    }
  });
});
