// Plans on the code through the real server process against the emulator: the demo workspace's plans put a verdict
// on each resource block of the folder (code lens + hover), a resource the plan destroys whose block is gone gives
// one diagnostic on the cloud block, an edit marks the overlay stale, and a plan after an apply says "no changes".
// The emulator's clock is manual: the tests advance it until the run has planned, then wait (bounded) for the
// server's own notification.
import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { CodeLens, Hover, PublishDiagnosticsParams } from 'vscode-languageserver-protocol/node';
import { startEmulator, type RunningEmulator } from '../../emulator/src/index';
import { demoAppPipelineFiles } from '../../emulator/src/seeds/configurations';
import type { PlanOverlay } from '../../server/src/protocol';
import { planOverlayRequest } from '../../server/src/protocol';
import { startSession, type LspSession } from '../helpers/lspSession';

const changed = 'hcpTerraform/planOverlayChanged';
type Changed = { folderUri: string; overlay: PlanOverlay | null };

describe('plans on the code over LSP against the emulator', () => {
  let emulator: RunningEmulator;
  before(async () => {
    emulator = await startEmulator({ seed: 'demo', clock: 'manual' });
  });
  after(async () => {
    await emulator.close();
  });

  async function api<T>(method: string, pathAndQuery: string, body?: unknown): Promise<T> {
    const response = await fetch(`${emulator.url}/api/v2${pathAndQuery}`, {
      method,
      headers: { authorization: `Bearer ${emulator.tokens.owner}`, 'content-type': 'application/vnd.api+json', accept: 'application/vnd.api+json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    assert.ok(response.status < 300, `${method} ${pathAndQuery}: ${response.status}`);
    return (response.status === 204 || response.status === 202 ? undefined : await response.json()) as T;
  }
  const runStatus = async (runId: string) => (await api<{ data: { attributes: { status: string } } }>('GET', `/runs/${runId}`)).data.attributes.status;
  /** Moves the emulator's clock until the run reaches one of the statuses (bounded). */
  async function advanceUntil(runId: string, statuses: string[]): Promise<void> {
    for (let step = 0; step < 120; step++) {
      if (statuses.includes(await runStatus(runId))) return;
      await emulator.control.advance(2_000);
    }
    assert.fail(`run ${runId} never reached ${statuses.join('/')} (is ${await runStatus(runId)})`);
  }
  async function lensTitles(session: LspSession, file: string): Promise<Map<number, string[]>> {
    const uri = pathToFileURL(path.join(session.folder, file)).href;
    const lenses = (await session.connection.sendRequest('textDocument/codeLens', { textDocument: { uri } })) as CodeLens[];
    const byLine = new Map<number, string[]>();
    for (const lens of lenses) byLine.set(lens.range.start.line, [...(byLine.get(lens.range.start.line) ?? []), lens.command?.title ?? '']);
    return byLine;
  }
  async function lineOf(session: LspSession, file: string, needle: string): Promise<number> {
    const line = (await readFile(path.join(session.folder, file), 'utf8')).split('\n').findIndex((text) => text.includes(needle));
    assert.ok(line >= 0, needle);
    return line;
  }

  test('the workspace plan gives each block its verdict; a destroyed resource gone from the code is one diagnostic on the cloud block; an edit makes it stale', async () => {
    const session = await startSession({
      address: emulator.url,
      token: emulator.tokens.owner,
      prepare: async (folder) => {
        // What the workspace plans from (the pipeline's files), a valid tfvars, and no database block: a local plan
        // then destroys terraform_data.database, whose block is gone.
        for (const [name, text] of Object.entries(demoAppPipelineFiles)) await writeFile(path.join(folder, name), text);
        await writeFile(path.join(folder, 'terraform.tfvars'), 'region = "eu-central-1"\n');
        await rm(path.join(folder, 'demo.auto.tfvars'));
        const main = await readFile(path.join(folder, 'main.tf'), 'utf8');
        await writeFile(path.join(folder, 'main.tf'), main.replace(/resource "terraform_data" "database" \{[\s\S]*?\n\}\n/, ''));
        // Its output goes too: a plan refuses a reference to an undeclared resource, as Terraform does.
        const outputs = await readFile(path.join(folder, 'outputs.tf'), 'utf8');
        await writeFile(path.join(folder, 'outputs.tf'), outputs.replace(/output "database_password_hash" \{[\s\S]*?\n\}\n/, ''));
      },
    });
    try {
      // At link time: the newest run with a finished plan ("Scale to three instances": two more instances).
      const first = await session.waitFor<Changed>(changed, (params) => params.overlay !== null, 20_000);
      assert.equal(first.folderUri, session.folderUri);
      assert.equal(first.overlay!.runMessage, 'Scale to three instances');
      let titles = await lensTitles(session, 'main.tf');
      assert.deepEqual(titles.get(await lineOf(session, 'main.tf', 'resource "terraform_data" "app_instance"')), ['Plan: 2 of 3 instances change']);
      assert.deepEqual(titles.get(await lineOf(session, 'main.tf', 'resource "random_pet" "app_name"')), ['Plan: no changes']);
      // The cloud block keeps its own lenses (the run, its actions).
      assert.ok((titles.get(await lineOf(session, 'main.tf', 'cloud {')) ?? []).some((title) => title.startsWith('demo-app:')));

      // Plan the local files (no database block): that plan replaces the overlay once it has finished.
      const workspaceId = first.overlay!.workspaceId;
      const run = (await session.connection.sendRequest('workspace/executeCommand', {
        command: 'hcpTerraform.server.planLocalChanges',
        arguments: [{ folderUri: session.folderUri, workspaceId, message: 'plan without the database' }],
      })) as { id: string };
      const local = session.waitFor<Changed>(changed, (params) => params.overlay?.runId === run.id, 30_000);
      await advanceUntil(run.id, ['planned_and_finished', 'planned', 'errored']);
      assert.notEqual(await runStatus(run.id), 'errored');
      const overlay = (await local).overlay!;
      assert.deepEqual(overlay.unmatched.map((change) => [change.address, change.action]), [['terraform_data.database', 'delete']]);
      const mainUri = pathToFileURL(path.join(session.folder, 'main.tf')).href;
      const diagnostics = await session.waitFor<PublishDiagnosticsParams>('textDocument/publishDiagnostics', (params) => params.uri === mainUri && params.diagnostics.some((d) => d.code === 'plan-unmatched'));
      const diagnostic = diagnostics.diagnostics.find((d) => d.code === 'plan-unmatched')!;
      assert.match(diagnostic.message as string, /1 resource will be destroyed: terraform_data\.database/);
      assert.equal(diagnostic.severity, 3);
      assert.equal(diagnostic.range.start.line, await lineOf(session, 'main.tf', 'cloud {'));

      // The hover on a block header: the verdict, per instance, and the run.
      const appLine = await lineOf(session, 'main.tf', 'resource "terraform_data" "app_instance"');
      const hover = (await session.connection.sendRequest('textDocument/hover', { textDocument: { uri: mainUri }, position: { line: appLine, character: 3 } })) as Hover;
      const text = JSON.stringify(hover.contents);
      assert.match(text, /\[1\]/);
      assert.match(text, /known after apply/);
      assert.match(text, new RegExp(run.id));
      assert.doesNotMatch(text, /hunter2-demo/);
      const asked = await session.connection.sendRequest(planOverlayRequest, { folderUri: session.folderUri });
      assert.equal(asked?.runId, run.id);

      // An edit of a file of the folder: the overlay says it may be out of date, and offers a new local plan.
      const text2 = await readFile(path.join(session.folder, 'main.tf'), 'utf8');
      await session.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: mainUri, languageId: 'terraform', version: 1, text: text2 } });
      const stale = session.waitForNext<Changed>(changed, (params) => params.overlay?.stale === true);
      await session.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri: mainUri, version: 2 },
        contentChanges: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '# edited\n' }],
      });
      await stale;
      titles = await lensTitles(session, 'main.tf');
      const after = titles.get(appLine + 1) ?? [];
      assert.ok(after.some((title) => /out of date/.test(title)), after.join(' | '));
      // Offered once per file (on its first block), with the folder and workspace to plan.
      assert.equal([...titles.values()].flat().filter((title) => title === 'Plan local changes').length, 1);
    } finally {
      await session.close();
      await emulator.control.reset();
    }
  });

  test('a plan after an apply shows "no changes" on every block; turning the setting off removes the overlay', async () => {
    // The client's settings, changed below (the server reads them with workspace/configuration).
    const settings: { planOverlay?: { enabled: boolean } } = {};
    const session = await startSession({ address: emulator.url, token: emulator.tokens.owner, settings });
    try {
      const first = await session.waitFor<Changed>(changed, (params) => params.overlay !== null, 20_000);
      const awaiting = first.overlay!.runId;
      await api('POST', `/runs/${awaiting}/actions/apply`, { comment: 'apply it' });
      await advanceUntil(awaiting, ['applied']);
      const run = (await session.connection.sendRequest('workspace/executeCommand', {
        command: 'hcpTerraform.server.queuePlan',
        arguments: [{ workspaceId: first.overlay!.workspaceId, message: 'after the apply', planOnly: true }],
      })) as { id: string };
      const next = session.waitFor<Changed>(changed, (params) => params.overlay?.runId === run.id, 30_000);
      await advanceUntil(run.id, ['planned_and_finished', 'errored']);
      const overlay = (await next).overlay!;
      const labels = new Set(overlay.blocks.map((block) => block.label));
      assert.deepEqual([...labels], ['no changes']);
      const titles = await lensTitles(session, 'main.tf');
      assert.deepEqual(titles.get(await lineOf(session, 'main.tf', 'resource "terraform_data" "app_instance"')), ['Plan: no changes']);

      const gone = session.waitForNext<Changed>(changed, (params) => params.overlay === null);
      settings.planOverlay = { enabled: false };
      await session.connection.sendNotification('workspace/didChangeConfiguration', { settings: null });
      await gone;
      const lensesOff = await lensTitles(session, 'main.tf');
      assert.equal([...lensesOff.values()].flat().filter((title) => title.startsWith('Plan:')).length, 0);
    } finally {
      await session.close();
      await emulator.control.reset();
    }
  });
});
