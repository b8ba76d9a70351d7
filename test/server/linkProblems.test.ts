// A workspace that cannot be read is told in every editor, once: variables that cannot be refreshed (the values read
// before stay), a token that cannot be sent, a token refused since the link (signed out, sign-in asked). A name the
// service does not have is an error on the name (workspace-link), not a notice: relinking follows the typing.
// Before, only the VS Code tree and the code lens said so, and Neovim said nothing.
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { tokenCharacterProblem } from '../../server/src/auth/tokenCharacters';
import { WorkspaceDirectory } from '../../server/src/workspaces/directory';
import { LinkProblemNotices, type LinkProblem } from '../../server/src/workspaces/linkProblemNotices';
import { RunWatcher } from '../../server/src/workspaces/runWatcher';
import { startEmulator, type RunningEmulator } from '../../emulator/src/index';
import { startSession } from '../helpers/lspSession';
import { untilTurns as until } from '../helpers/eventLoopTurns';
import { ManualClock } from '../helpers/manualClock';
import { signedInHosts } from '../helpers/signedInHosts';

describe('LinkProblemNotices', () => {
  test('one notice per workspace and kind of problem, a token\'s once per host; again only after a read succeeded', () => {
    const shown: string[] = [];
    const notices = new LinkProblemNotices((message) => shown.push(message));
    const unreadable: LinkProblem = { kind: 'unreadable', message: 'down' };
    notices.update('a', 'h', unreadable);
    notices.update('a', 'h', unreadable); // the next minute's retry
    notices.update('b', 'h', unreadable);
    assert.deepEqual(shown, ['down', 'down']);
    // A token that cannot be sent concerns the host: told once for all its workspaces, even after an outage notice.
    notices.update('a', 'h', { kind: 'token', message: 'bad token' });
    notices.update('b', 'h', { kind: 'token', message: 'bad token' });
    assert.deepEqual(shown, ['down', 'down', 'bad token']);
    notices.update('a', 'h', undefined);
    notices.update('a', 'h', unreadable);
    notices.update('b', 'h', { kind: 'token', message: 'bad token' });
    assert.deepEqual(shown, ['down', 'down', 'bad token', 'down', 'bad token']);
  });
});

describe('tokenCharacterProblem', () => {
  test('visible ASCII passes; a space, a line break or a non-ASCII letter inside does not, and the source is named', () => {
    assert.equal(tokenCharacterProblem('h', { token: 'abc.DEF-123_x~', source: 'client' }), undefined);
    for (const token of ['abc def', 'abc\ndef', 'abcédef', 'abc\u00a0def']) {
      assert.match(tokenCharacterProblem('h', { token, source: 'environment', from: 'TF_TOKEN_h' }) ?? '', /from the variable TF_TOKEN_h holds a character/, JSON.stringify(token));
    }
  });
});

describe('WorkspaceDirectory tells what it cannot read', () => {
  let emulator: RunningEmulator;
  let hostname: string;
  before(async () => {
    emulator = await startEmulator({ seed: 'demo', clock: 'manual' });
    hostname = new URL(emulator.url).host;
  });
  after(() => emulator.close());

  function directory(token = emulator.tokens.owner) {
    const clock = new ManualClock(emulator.control.now().getTime());
    const { hosts } = signedInHosts(emulator.url, token, clock);
    const watcher = new RunWatcher({ timers: clock, clientFor: (host) => hosts.clientFor(host), onRuns: () => undefined });
    const problems: Array<LinkProblem | undefined> = [];
    const signIns: string[] = [];
    const workspaces = new WorkspaceDirectory({
      hosts,
      watcher,
      timers: clock,
      log: () => undefined,
      onChanged: () => undefined,
      onSignInNeeded: (_host, reason) => signIns.push(reason),
      onLinkProblem: (_knowledge, problem) => problems.push(problem),
    });
    const dispose = async () => {
      watcher.dispose();
      workspaces.dispose();
      await hosts.dispose();
    };
    return { clock, workspaces, problems, signIns, dispose };
  }

  test('a workspace the organization does not have: not-found, and no notice (its diagnostic says it)', async () => {
    const { workspaces, problems, dispose } = directory();
    try {
      const knowledge = workspaces.acquire({ hostname, organization: 'acme-demo', name: 'no-such-ws' });
      await until(() => (problems.length > 0 ? true : undefined));
      assert.equal(knowledge.state.kind, 'not-found');
      assert.deepEqual(problems, [undefined]);
    } finally {
      await dispose();
    }
  });

  test('a token with a character no token has is not sent, and the user hears what to fix (not a network error)', async () => {
    const { workspaces, problems, dispose } = directory(`${emulator.tokens.owner.slice(0, 8)}é${emulator.tokens.owner.slice(8)}`);
    const requestsBefore = emulator.control.requests().length;
    try {
      const knowledge = workspaces.acquire({ hostname, organization: 'acme-demo', name: 'demo-app' });
      const told = await until(() => problems.find((problem) => problem !== undefined));
      assert.equal(told.kind, 'token');
      assert.match(told.message, /holds a character no token has .*copy the token again/);
      assert.doesNotMatch(told.message, /network/);
      assert.doesNotMatch(told.message, new RegExp(emulator.tokens.owner.slice(0, 8)), 'never the token');
      assert.equal(knowledge.state.kind, 'error');
      assert.equal(emulator.control.requests().length, requestsBefore, 'nothing was sent');
    } finally {
      await dispose();
    }
  });

  test('variables that cannot be refreshed keep the values read before; a read that works clears it; a 401 signs out', async () => {
    const { clock, workspaces, problems, signIns, dispose } = directory();
    try {
      const knowledge = workspaces.acquire({ hostname, organization: 'acme-demo', name: 'demo-app' });
      await until(() => (knowledge.state.kind === 'linked' && knowledge.variables ? true : undefined));
      const before = knowledge.variables;
      // What the owner's token may queue there, as the workspace document says (code actions offer only that).
      const permissions = knowledge.state.kind === 'linked' ? knowledge.state.workspace.permissions : undefined;
      assert.deepEqual([permissions?.canQueueRun, permissions?.canQueueDestroy], [true, true]);
      assert.ok(problems.length > 0, 'the workspace and its variables were read');
      assert.equal(problems.filter((problem) => problem !== undefined).length, 0, 'without a problem');

      // A body that is not JSON (a proxy in the way): not retried, so told at once.
      emulator.control.injectFault({ method: 'GET', path: '/api/v2/vars', kind: 'malformed', times: 1 });
      await clock.advance(60_000);
      const told = await until(() => problems.find((problem) => problem !== undefined));
      assert.equal(told.kind, 'unreadable');
      assert.match(told.message, /could not read the variables of workspace "demo-app".* Showing those read before/);
      assert.equal(knowledge.state.kind, 'linked');
      assert.equal(knowledge.variables, before, 'nothing lost');

      const count = problems.length;
      await clock.advance(60_000);
      await until(() => (problems.length > count ? true : undefined));
      assert.equal(problems.at(-1), undefined, 'the next minute read them again');

      emulator.control.injectFault({ method: 'GET', path: '/api/v2/vars', kind: 'status', status: 401, times: 1 });
      await clock.advance(60_000);
      await until(() => (signIns.length > 0 ? true : undefined));
      assert.match(signIns[0]!, /refused the API token \(401\)/);
      assert.equal(knowledge.state.kind, 'signed-out');
      assert.equal(knowledge.variables, undefined, 'no values the token may no longer read');
    } finally {
      await dispose();
    }
  });
});

describe('over LSP', () => {
  let emulator: RunningEmulator;
  before(async () => {
    emulator = await startEmulator({ seed: 'demo', clock: 'manual' });
  });
  after(() => emulator.close());

  test('a cloud block naming a workspace the service does not have: an error on the name (workspace-link), no popup', async () => {
    const session = await startSession({
      address: emulator.url,
      token: emulator.tokens.owner,
      prepare: async (folder) => {
        const main = path.join(folder, 'main.tf');
        await writeFile(main, (await readFile(main, 'utf8')).replace('name = "demo-app"', 'name = "no-such-ws"'));
      },
    });
    try {
      const published = await session.waitFor<{ uri: string; diagnostics: Array<{ code?: string; severity?: number; message: string }> }>('textDocument/publishDiagnostics', (p) =>
        p.diagnostics.some((d) => d.code === 'workspace-link'),
      );
      const error = published.diagnostics.find((d) => d.code === 'workspace-link')!;
      assert.equal(error.severity, 1);
      assert.match(error.message, /no workspace "no-such-ws" in organization "acme-demo"/);
      assert.match(published.uri, /main\.tf$/);
      assert.equal(session.received.filter((m) => m.method === 'window/showMessage' && String((m.params as { message: string }).message).includes('no-such-ws')).length, 0, 'no popup');
    } finally {
      await session.close();
    }
  });
});

/** Polls a condition on the event loop (HTTP answers arrive asynchronously), bounded; never sleeps on a timer. */
