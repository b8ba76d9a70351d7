// Run actions and the run code lens through the real server process against the emulator: a code action queues a
// plan targeting the resource at the cursor, and the emulator holds that run with its target-addrs.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { CodeAction, CodeLens, PublishDiagnosticsParams } from 'vscode-languageserver-protocol/node';
import { startEmulator, type RunningEmulator } from '../../emulator/src/index';
import { confirmDestructiveCommands, startSession, type LspSession } from '../helpers/lspSession';

describe('run actions over LSP against the emulator', () => {
  let emulator: RunningEmulator;
  before(async () => {
    emulator = await startEmulator({ seed: 'demo', clock: 'manual' });
  });
  after(async () => {
    await emulator.close();
  });

  /** The workspace snapshot is known once a workspace-dependent diagnostic has been published. */
  async function linked(session: LspSession): Promise<void> {
    await session.waitFor<PublishDiagnosticsParams>('textDocument/publishDiagnostics', (params) => params.diagnostics.some((d) => d.code === 'missing-value'));
  }

  // Checks read with the owners team's token: the service counts its rate limit per caller, and the server under
  // test is the owner, so reading as the owner would spend its budget (a 429 under load).
  async function apiGet<T>(pathAndQuery: string): Promise<T> {
    const response = await fetch(`${emulator.url}/api/v2${pathAndQuery}`, { headers: { authorization: `Bearer ${emulator.tokens.team}`, accept: 'application/vnd.api+json' } });
    assert.equal(response.status, 200, `GET ${pathAndQuery}`);
    return (await response.json()) as T;
  }

  test('a code action queues a plan targeting the resource at the cursor; the emulator holds it with target-addrs', async () => {
    const session = await startSession({ address: emulator.url, token: emulator.tokens.owner, answer: confirmDestructiveCommands });
    try {
      await linked(session);
      const file = path.join(session.folder, 'main.tf');
      const uri = pathToFileURL(file).href;
      const lines = (await readFile(file, 'utf8')).split('\n');
      const line = lines.findIndex((l) => l.includes('resource "terraform_data" "database"')) + 2;
      const actions = (await session.connection.sendRequest('textDocument/codeAction', {
        textDocument: { uri },
        range: { start: { line, character: 4 }, end: { line, character: 4 } },
        context: { diagnostics: [], only: ['source.hcpTerraform'] },
      })) as CodeAction[];
      const targeted = actions.find((action) => action.kind === 'source.hcpTerraform.queuePlan.target');
      assert.equal(targeted?.title, 'Queue a plan targeting terraform_data.database');
      const run = (await session.connection.sendRequest('workspace/executeCommand', { command: targeted!.command!.command, arguments: targeted!.command!.arguments })) as { id: string };
      assert.match(run.id, /^run-/);
      const held = await apiGet<{ data: { attributes: { 'target-addrs'?: string[]; message?: string } } }>(`/runs/${run.id}`);
      assert.deepEqual(held.data.attributes['target-addrs'], ['terraform_data.database']);
      assert.equal(held.data.attributes.message, 'Queued from the editor');
    } finally {
      await session.close();
      await emulator.control.reset();
    }
  });

  /** The run actions VS Code would get for a selection inside the database block of the (opened) main.tf. */
  async function actionsInDatabaseBlock(session: LspSession): Promise<CodeAction[]> {
    const file = path.join(session.folder, 'main.tf');
    const uri = pathToFileURL(file).href;
    const text = await readFile(file, 'utf8');
    await session.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'terraform', version: 1, text } });
    const line = text.split('\n').findIndex((l) => l.includes('password_hash = sha256(var.db_password)'));
    // A selection: run actions for the block around it, and a change request with the selection as its subject.
    return (await session.connection.sendRequest('textDocument/codeAction', {
      textDocument: { uri },
      range: { start: { line, character: 4 }, end: { line, character: 17 } },
      context: { diagnostics: [], only: ['source.hcpTerraform'] },
    })) as CodeAction[];
  }

  const verbOf = (action: CodeAction) => action.command!.command.replace('hcpTerraform.server.', '');
  const execute = async (session: LspSession, action: CodeAction) =>
    (await session.connection.sendRequest('workspace/executeCommand', { command: action.command!.command, arguments: action.command!.arguments })) as { id: string };
  const runAttributes = async (id: string) => (await apiGet<{ data: { attributes: Record<string, unknown> } }>(`/runs/${id}`)).data.attributes;

  test('every run action offered in a resource block changes the service as its title says', async () => {
    // As VS Code: it asks for a change request's subject (the selected text is never sent), and confirms the
    // destructive actions itself.
    const session = await startSession({ address: emulator.url, token: emulator.tokens.owner, initializationOptions: { prompts: { changeRequestSubject: true, confirmations: true } } });
    try {
      await linked(session);
      const actions = await actionsInDatabaseBlock(session);
      const verbs = actions.map(verbOf);
      for (const verb of ['queuePlan', 'planLocalChanges', 'applyRun', 'discardRun', 'createChangeRequest']) {
        assert.ok(verbs.includes(verb), `no ${verb} action among ${actions.map((a) => a.title).join(' | ')}`);
      }
      assert.ok(actions.every((action) => !/run-\w{8,}/.test(action.title)), `a title shows a run id: ${actions.map((a) => a.title).join(' | ')}`);
      // Apply last: once applied, the run is no longer discardable (discard has its own test below).
      const ordered = [...actions.filter((a) => !['applyRun', 'discardRun'].includes(verbOf(a))), ...actions.filter((a) => verbOf(a) === 'applyRun')];
      for (const action of ordered) {
        const [args] = action.command!.arguments as [Record<string, unknown>];
        if (verbOf(action) === 'createChangeRequest') {
          assert.ok(!JSON.stringify(action).includes('password_hash'), `the selected text is in the action: ${action.title}`);
          // What the user types when the client asks.
          action.command!.arguments = [{ ...args, subject: 'Typed by the user' }];
        }
        const result = await execute(session, action);
        const verb = verbOf(action);
        if (verb === 'queuePlan') {
          const run = await runAttributes(result.id);
          assert.equal(run['is-destroy'], args.isDestroy === true, action.title);
          assert.equal(run['refresh-only'], args.refreshOnly === true, action.title);
          assert.deepEqual(run['target-addrs'] ?? [], args.targetAddrs ?? [], action.title);
          assert.deepEqual(run['replace-addrs'] ?? [], args.replaceAddrs ?? [], action.title);
        } else if (verb === 'planLocalChanges') {
          assert.equal((await runAttributes(result.id))['plan-only'], true, action.title);
        } else if (verb === 'applyRun') {
          assert.notEqual((await runAttributes(String(args.runId))).status, 'policy_checked', action.title);
        } else if (verb === 'createChangeRequest') {
          const listed = await apiGet<{ data: Array<{ attributes: Record<string, unknown> }> }>('/workspaces/demo-app/change-requests?page%5Bsize%5D=100');
          assert.ok(listed.data.some((cr) => cr.attributes.subject === 'Typed by the user' && !String(cr.attributes.message).includes('password_hash')), action.title);
        } else {
          assert.fail(`an action this test does not know how to check: ${action.title}`);
        }
      }
    } finally {
      await session.close();
      await emulator.control.reset();
    }
  });

  test('the discard action discards the run awaiting confirmation', async () => {
    const session = await startSession({ address: emulator.url, token: emulator.tokens.owner, answer: confirmDestructiveCommands });
    try {
      await linked(session);
      const discard = (await actionsInDatabaseBlock(session)).find((action) => verbOf(action) === 'discardRun');
      assert.ok(discard, 'no discard action');
      await execute(session, discard);
      const [args] = discard.command!.arguments as [{ runId: string }];
      assert.equal((await runAttributes(args.runId)).status, 'discarded');
    } finally {
      await session.close();
      await emulator.control.reset();
    }
  });

  test('the code lens above the cloud block shows the current run and the actions its flags allow', async () => {
    const session = await startSession({ address: emulator.url, token: emulator.tokens.owner, answer: confirmDestructiveCommands });
    try {
      await linked(session);
      const uri = pathToFileURL(path.join(session.folder, 'main.tf')).href;
      const workspace = await apiGet<{ data: { id: string; relationships: { 'current-run'?: { data?: { id: string } | null } } } }>('/organizations/acme-demo/workspaces/demo-app');
      const currentRunId = workspace.data.relationships['current-run']?.data?.id;
      assert.ok(currentRunId, 'the demo workspace has a current run');
      const current = await apiGet<{ data: { attributes: { status: string; actions?: Record<string, boolean | null> } } }>(`/runs/${currentRunId}`);
      const all = (await session.connection.sendRequest('textDocument/codeLens', { textDocument: { uri } })) as CodeLens[];
      // The cloud block's lenses (resource blocks may carry the plan's verdicts: features-plans.test.ts).
      const lenses = all.filter((lens) => lens.range.start.line === all[0]!.range.start.line);
      const titles = lenses.map((lens) => lens.command?.title ?? '');
      assert.match(titles[0], /^demo-app: /);
      const actions = current.data.attributes.actions ?? {};
      assert.equal(titles.includes('Apply'), actions['is-confirmable'] === true, `Apply lens iff confirmable (${current.data.attributes.status}): ${titles.join(' | ')}`);
      assert.equal(titles.includes('Discard'), actions['is-discardable'] === true, `Discard lens iff discardable: ${titles.join(' | ')}`);
      for (const lens of lenses.slice(1)) assert.match(lens.command?.command ?? '', /^hcpTerraform\.server\.(applyRun|discardRun|cancelRun|forceCancelRun|queuePlan)$/);
    } finally {
      await session.close();
    }
  });
});
