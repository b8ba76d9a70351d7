// The standalone server (`node dist/server.js --stdio`) driven by a bare JSON-RPC client — Content-Length framing
// by hand, no LSP library — as Neovim, Helix or Emacs would: the code lens and the hover on a resource block carry
// the plan's verdict, and `showPlanOnCode` puts an older run's plan on the code. Build first (`node esbuild.mjs`).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { startEmulator } from '../../emulator/src/index';

interface Message {
  id?: number;
  method?: string;
  params?: any;
  result?: any;
  error?: { message: string };
}

test('a plain JSON-RPC client gets plan verdicts in code lenses and hovers, and can pin a run', async () => {
  const emulator = await startEmulator({ seed: 'demo', clock: 'manual' });
  const base = await mkdtemp(path.join(os.tmpdir(), 'hcp-plain-'));
  const folder = path.join(base, 'demo-app');
  await cp(path.resolve('test/fixtures/demo-app'), folder, { recursive: true });
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('TF_TOKEN_') && !key.startsWith('TF_CLOUD_')));
  const child = spawn(process.execPath, [path.resolve('dist/server.js'), '--stdio'], { env: { ...env, HOME: base }, stdio: ['pipe', 'pipe', 'pipe'] });
  const received: Message[] = [];
  const waiters: Array<{ match: (m: Message) => boolean; resolve: (m: Message) => void }> = [];
  let buffer = Buffer.alloc(0);
  child.stdout.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const headerEnd = buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, headerEnd).toString())?.[1]);
      if (buffer.length < headerEnd + 4 + length) return;
      const message = JSON.parse(buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString('utf8')) as Message;
      buffer = buffer.subarray(headerEnd + 4 + length);
      // The server's own requests (configuration, registrations, refreshes) get a plain null answer.
      if (message.method && message.id !== undefined) send({ jsonrpc: '2.0', id: message.id, result: message.method === 'workspace/configuration' ? message.params.items.map(() => null) : null });
      received.push(message);
      for (const waiter of [...waiters]) if (waiter.match(message)) waiters.splice(waiters.indexOf(waiter), 1), waiter.resolve(message);
    }
  });
  const send = (message: object) => {
    const body = Buffer.from(JSON.stringify(message), 'utf8');
    child.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
    child.stdin.write(body);
  };
  const waitFor = (match: (m: Message) => boolean, what: string) => {
    const found = received.find(match);
    if (found) return Promise.resolve(found);
    return new Promise<Message>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${what} within 20 s`)), 20_000);
      waiters.push({ match, resolve: (m) => (clearTimeout(timer), resolve(m)) });
    });
  };
  let nextId = 1;
  const request = async (method: string, params: unknown) => {
    const id = nextId++;
    send({ jsonrpc: '2.0', id, method, params });
    const answer = await waitFor((m) => m.id === id && m.method === undefined, `answer to ${method}`);
    if (answer.error) throw new Error(answer.error.message);
    return answer.result;
  };
  try {
    const folderUri = pathToFileURL(folder).href;
    await request('initialize', {
      processId: null,
      rootUri: folderUri,
      workspaceFolders: [{ uri: folderUri, name: 'demo-app' }],
      capabilities: { workspace: { configuration: true, codeLens: { refreshSupport: true } } },
      initializationOptions: { address: emulator.url, token: emulator.tokens.owner },
    });
    send({ jsonrpc: '2.0', method: 'initialized', params: {} });
    const overlay = (await waitFor((m) => m.method === 'hcpTerraform/planOverlayChanged' && m.params.overlay !== null, 'plan overlay')).params.overlay;
    assert.equal(overlay.runMessage, 'Scale to three instances');

    const uri = pathToFileURL(path.join(folder, 'main.tf')).href;
    const lines = (await readFile(path.join(folder, 'main.tf'), 'utf8')).split('\n');
    const appLine = lines.findIndex((l) => l.includes('resource "terraform_data" "app_instance"'));
    const lenses = (await request('textDocument/codeLens', { textDocument: { uri } })) as Array<{ range: { start: { line: number } }; command: { title: string } }>;
    assert.deepEqual(lenses.filter((l) => l.range.start.line === appLine).map((l) => l.command.title), ['Plan: 2 of 3 instances change']);
    const hover = (await request('textDocument/hover', { textDocument: { uri }, position: { line: appLine, character: 2 } })) as { contents: { value: string } };
    assert.match(hover.contents.value, /\+ create/);
    assert.match(hover.contents.value, /Scale to three instances/);

    // Pin the older, applied run ("Add monitoring toggle"): its plan goes on the code instead.
    // The plan lists the instances it leaves alone too (no-op); only what it changes is a resource change.
    const latest = (await request('hcpTerraform/planResourceChanges', { runId: overlay.runId })) as { changes: Array<{ address: string; action: string }> };
    assert.deepEqual(latest.changes.map((change) => `${change.action} ${change.address}`).sort(), ['create terraform_data.app_instance[1]', 'create terraform_data.app_instance[2]']);
    const runs = await fetch(`${emulator.url}/api/v2/workspaces/${overlay.workspaceId}/runs`, { headers: { authorization: `Bearer ${emulator.tokens.team}` } }).then((r) => r.json() as Promise<{ data: Array<{ id: string; attributes: { message: string } }> }>);
    const older = runs.data.find((run) => run.attributes.message === 'Add monitoring toggle')!;
    const shown = await request('workspace/executeCommand', { command: 'hcpTerraform.server.showPlanOnCode', arguments: [{ runId: older.id }] });
    assert.deepEqual(shown, { folderUris: [folderUri] });
    const pinned = (await request('hcpTerraform/planOverlay', { folderUri })) as { runId: string; runStatus: string };
    assert.equal(pinned.runId, older.id);
    assert.equal(pinned.runStatus, 'applied');
    const pinnedLenses = (await request('textDocument/codeLens', { textDocument: { uri } })) as Array<{ command: { title: string } }>;
    assert.ok(pinnedLenses.some((l) => /^Plan: .*\(applied\)$/.test(l.command.title)), pinnedLenses.map((l) => l.command.title).join(' | '));
    const changes = (await request('hcpTerraform/planResourceChanges', { runId: older.id })) as { changes: Array<{ address: string; uri?: string }> };
    assert.ok(changes.changes.length > 0);
    assert.ok(changes.changes.every((change) => change.uri?.startsWith(folderUri)), JSON.stringify(changes.changes.map((c) => c.address)));

    await request('shutdown', null);
    send({ jsonrpc: '2.0', method: 'exit' });
    const code = await new Promise<number | null>((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', resolve)));
    assert.equal(code, 0);
  } finally {
    child.kill();
    await emulator.close();
    await rm(base, { recursive: true, force: true });
  }
});
