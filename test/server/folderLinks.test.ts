// The core's FeatureHost in-process, on a manual clock against the emulator: snapshots are immutable and change
// only when something in them changed; typing a workspace name in the cloud block calls the service once, after
// the typing stopped, never per keystroke; sensitive values never reach a snapshot.
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { TokenResolver } from '../../server/src/auth/tokens';
import { ModuleFolders } from '../../server/src/documents/moduleFolders';
import type { FeatureHostChange } from '../../server/src/features/host';
import { loadTerraformParser } from '../../server/src/model';
import { WorkspaceDirectory } from '../../server/src/workspaces/directory';
import { FolderLinks, relinkDelayMs } from '../../server/src/workspaces/folderLinks';
import { ServiceHosts } from '../../server/src/workspaces/hosts';
import { RunWatcher } from '../../server/src/workspaces/runWatcher';
import { startEmulator, type RunningEmulator } from '../../emulator/src/index';
import { untilTurns as until } from '../helpers/eventLoopTurns';
import { ManualClock } from '../helpers/manualClock';

describe('FolderLinks (the FeatureHost)', () => {
  let emulator: RunningEmulator;
  let base: string;
  before(async () => {
    emulator = await startEmulator({ seed: 'demo', clock: 'manual' });
    base = await mkdtemp(path.join(os.tmpdir(), 'links-'));
    await cp('test/fixtures/demo-app', path.join(base, 'demo-app'), { recursive: true });
  });
  after(async () => {
    await rm(base, { recursive: true, force: true });
    await emulator.close();
  });

  async function core() {
    const clock = new ManualClock(emulator.control.now().getTime());
    const tokens = new TokenResolver({ environment: {}, homeDirectory: base });
    const hosts = new ServiceHosts({ tokens, timers: clock });
    hosts.setConfiguredAddress(emulator.url);
    tokens.setClientToken(hosts.configuredHost, emulator.tokens.owner);
    const watcher = new RunWatcher({ timers: clock, clientFor: (host) => hosts.clientFor(host), onRuns: () => undefined });
    let links: FolderLinks;
    const directory = new WorkspaceDirectory({
      hosts,
      watcher,
      timers: clock,
      log: () => undefined,
      onChanged: (knowledge) => links.knowledgeChanged(knowledge),
      onSignInNeeded: () => undefined,
    });
    const folders = new ModuleFolders({ parser: loadTerraformParser(), environment: {}, log: () => undefined });
    links = new FolderLinks(folders, directory, hosts, clock, () => undefined);
    folders.onDidChange((event) => {
      if (event.kind === 'added') links.modelChanged(event.model, undefined, true);
      else if (event.kind === 'changed') links.modelChanged(event.model, event.change.files);
      else links.modelRemoved(event.model.folder);
    });
    const changes: FeatureHostChange[] = [];
    links.onDidChange((change) => changes.push(change));
    const dispose = async () => {
      watcher.dispose();
      directory.dispose();
      links.dispose();
      folders.dispose();
      await hosts.dispose();
    };
    return { clock, hosts, folders, links, directory, changes, dispose };
  }

  test('a folder gets a linked snapshot with its variables; the same object until something changes; no sensitive value', async () => {
    const { folders, links, dispose } = await core();
    try {
      const folder = path.join(base, 'demo-app');
      await folders.addRoot(folder);
      const snapshot = await until(() => {
        const current = links.snapshotFor(folder);
        return current?.workspace.kind === 'linked' && current.variables && current.featureSet !== undefined ? current : undefined;
      });
      assert.equal(links.snapshotFor(folder), snapshot, 'unchanged knowledge gives the same snapshot object');
      const password = snapshot.variables!.find((v) => v.key === 'AWS_SECRET_ACCESS_KEY');
      assert.ok(password?.sensitive && password.value === undefined);
      assert.ok(!JSON.stringify(snapshot).includes('demo-secret-access-key-never-shown'));
      assert.equal(snapshot.link.hostname?.value, new URL(emulator.url).host, 'the configured address stands in for the default hostname');
      assert.equal(snapshot.featureSet?.flags['cost-estimation'], true);
    } finally {
      await dispose();
    }
  });

  test('closing the workspace folder lets go of its workspace', async () => {
    const { folders, links, directory, dispose } = await core();
    try {
      const folder = path.join(base, 'demo-app');
      await folders.addRoot(folder);
      await until(() => (links.snapshotFor(folder)?.workspace.kind === 'linked' ? true : undefined));
      assert.deepEqual(directory.all().map((knowledge) => knowledge.target.name), ['demo-app']);
      folders.removeRoot(folder);
      assert.equal(links.snapshotFor(folder), undefined);
      assert.equal(links.modelFor(path.join(folder, 'main.tf')), undefined);
      assert.deepEqual(directory.all(), []);
    } finally {
      await dispose();
    }
  });

  test('typing a workspace name calls the service once, after the typing stopped', async () => {
    const { clock, folders, links, directory, changes, dispose } = await core();
    try {
      const folder = path.join(base, 'demo-app');
      await folders.addRoot(folder);
      await until(() => (links.snapshotFor(folder)?.workspace.kind === 'linked' ? true : undefined));
      const main = path.join(folder, 'main.tf');
      const text = await readFile(main, 'utf8');
      const model = folders.get(folder)!;
      model.openDocument(main, text);
      const start = text.indexOf('"demo-app"') + 1;
      const at = (offset: number) => {
        const before = text.slice(0, offset).split('\n');
        return { line: before.length - 1, character: before.at(-1)!.length };
      };
      const byName = () => emulator.control.requests().filter((r) => r.path.startsWith('/api/v2/organizations/acme-demo/workspaces/') && !r.path.includes('/runs')).length;
      const requestsBefore = byName();
      // Replace demo-app by staging-api, one keystroke at a time.
      model.changeDocument(main, [{ range: { start: at(start), end: at(start + 'demo-app'.length) }, text: '' }]);
      let typed = '';
      for (const character of 'staging-api') {
        const position = { line: at(start).line, character: at(start).character + typed.length };
        model.changeDocument(main, [{ range: { start: position, end: position }, text: character }]);
        typed += character;
        await clock.advance(100);
      }
      // Nothing was looked up while typing: no workspace knowledge exists for any partial name (nor the old one).
      assert.deepEqual(directory.all().map((knowledge) => knowledge.target.name), []);
      assert.equal(links.snapshotFor(folder)?.workspace.kind, 'loading');
      assert.ok(changes.some((change) => change.kind === 'snapshot'), 'the features were told the snapshot changed');
      await clock.advance(relinkDelayMs);
      const linked = await until(() => {
        const state = links.snapshotFor(folder)?.workspace;
        return state?.kind === 'linked' && state.workspace.name === 'staging-api' ? state : undefined;
      });
      assert.ok(linked);
      assert.equal(byName() - requestsBefore, 1, 'one lookup for the final name');
    } finally {
      await dispose();
    }
  });

  // A changed setting is no keystroke: waiting out the typing delay only made the link late (a root module that
  // waited for its module calls to be known took its override that way, a second after its folder was read).
  test('the workspace override set in the settings is looked up at once, without the typing delay', async () => {
    const { folders, links, dispose } = await core();
    try {
      const folder = path.join(base, 'demo-app');
      await folders.addRoot(folder);
      folders.setOverride(folder, { organization: 'acme-demo', workspace: 'staging-api' });
      // The clock is never advanced: a relink waiting for relinkDelayMs would never happen here.
      const linked = await until(() => {
        const state = links.snapshotFor(folder)?.workspace;
        return state?.kind === 'linked' && state.workspace.name === 'staging-api' ? state : undefined;
      });
      assert.ok(linked);
    } finally {
      await dispose();
    }
  });

  test("organization completion offers the names other folders write, not the asking folder's own half-typed one", async () => {
    const { hosts, folders, links, dispose } = await core();
    try {
      const folder = path.join(base, 'demo-app');
      await folders.addRoot(folder);
      const main = path.join(folder, 'main.tf');
      const text = await readFile(main, 'utf8');
      const model = folders.get(folder)!;
      // The user is typing the organization: "acme-" so far.
      model.openDocument(main, text.replace('"acme-demo"', '"acme-"'));
      links.modelChanged(model, [main]);
      assert.equal((await links.organizationNames(hosts.configuredHost, folder)).includes('acme-'), false, 'the text being typed is no name to offer');
      assert.ok((await links.organizationNames(hosts.configuredHost)).includes('acme-'), "another folder is offered this folder's organization");
    } finally {
      await dispose();
    }
  });

  test('completion names never wait for the service: what is known at once, the rest read in the background (#14 item 14)', async () => {
    const { hosts, links, dispose } = await core();
    try {
      const host = hosts.configuredHost;
      // A service that does not answer yet: the organization list hangs until the fault's latency ends.
      emulator.control.injectFault({ method: 'GET', path: '/api/v2/organizations', kind: 'latency', latencyMs: 400 });
      const answered = () => emulator.control.requests().some((r) => r.path.startsWith('/api/v2/organizations?') || r.path === '/api/v2/organizations');
      const first = await links.organizationNames(host);
      assert.equal(answered(), false, 'completion answered before the service did');
      assert.deepEqual(first, [], 'nothing known yet (no folder is linked in this core)');
      assert.equal(links.namesPending(host), true, 'the read goes on in the background: the list is incomplete');
      assert.deepEqual(await links.organizationNames(host), [], 'asking again does not wait either');
      await untilDeadline(() => (links.namesPending(host) ? undefined : true), 10_000);
      assert.ok((await links.organizationNames(host)).includes('acme-demo'), 'the names read in the background are there next time');
      const requests = emulator.control.requests().filter((r) => r.path.split('?')[0] === '/api/v2/organizations').length;
      assert.equal(requests, 1, 'one read for all those asks');
    } finally {
      await dispose();
    }
  });
});

/** Like until, bounded by real time instead of a count (for an answer that takes a moment: an injected latency). */
async function untilDeadline<T>(probe: () => T | undefined, boundMs: number): Promise<T> {
  const deadline = Date.now() + boundMs;
  while (Date.now() < deadline) {
    const value = probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`condition not reached within ${boundMs} ms`);
}

/** Polls a condition on the event loop (HTTP answers arrive asynchronously), bounded; never sleeps on a timer. */
