import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { describe, test } from 'node:test';
import { parseCli } from '../../emulator/src/cli';
import { fixedTokens } from '../../emulator/src/seeds/tokens';

describe('emulator CLI options', () => {
  test('parses every flag', () => {
    const parsed = parseCli(['--port', '8123', '--host', '0.0.0.0', '--seed', 'empty', '--speed', '4', '--edition', 'enterprise', '--info', 'i.json', '--fixed-tokens']);
    assert.deepEqual(parsed, {
      emulator: { port: 8123, host: '0.0.0.0', seed: 'empty', speed: 4, edition: 'enterprise' },
      infoFile: 'i.json',
      fixedTokens: true,
    });
    assert.deepEqual(parseCli([]), { emulator: {}, fixedTokens: false });
  });

  test('rejects bad values and unknown flags with the usage text', () => {
    assert.throws(() => parseCli(['--port', 'x']), /--port/);
    assert.throws(() => parseCli(['--seed', 'full']), /--seed must be demo or empty/);
    assert.throws(() => parseCli(['--speed', '0']), /--speed/);
    assert.throws(() => parseCli(['--edition', 'cloud']), /--edition/);
    assert.throws(() => parseCli(['--info']), /needs a value/);
    assert.throws(() => parseCli(['--verbose']), /Unknown option --verbose[\s\S]*Usage:/);
  });
});

describe('emulator CLI process', () => {
  test('prints its URL and labelled tokens, writes --info, serves the API and exits cleanly on SIGTERM', { timeout: 20_000 }, async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'emulator-cli-'));
    const infoFile = path.join(dir, 'info.json');
    // An existing, world-readable file: the tokens written into it must still end up readable by the user alone.
    await writeFile(infoFile, '{}', { mode: 0o644 });
    const child = spawn(process.execPath, ['--import', 'tsx', 'emulator/src/main.ts', '--port', '0', '--fixed-tokens', '--info', infoFile], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines: string[] = [];
    try {
      // Wait for the line that says the info file is written: the emulator is listening by then.
      const reader = createInterface({ input: child.stdout! });
      for await (const line of reader) {
        lines.push(line);
        if (line.startsWith('wrote ') || lines.length > 50) break;
      }
      const output = lines.join('\n');
      assert.match(output, /listening on http:\/\/127\.0\.0\.1:\d+/);
      assert.match(output, /emulator tokens, not real secrets/);
      assert.ok(output.includes(fixedTokens.owner));
      const info = JSON.parse(await readFile(infoFile, 'utf8'));
      assert.equal((await stat(infoFile)).mode & 0o777, 0o600, 'the info file holds tokens: 0600 even when it existed');
      assert.deepEqual(Object.keys(info).sort(), ['organization', 'tokens', 'url']);
      assert.equal(info.organization, 'acme-demo');
      assert.deepEqual(info.tokens, fixedTokens);
      const response = await fetch(`${info.url}/api/v2/organizations/acme-demo/workspaces/demo-app`, { headers: { Authorization: `Bearer ${info.tokens.member}` } });
      assert.equal(response.status, 200);
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const [code] = await exited;
      assert.equal(code, 0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('a bad flag exits with status 2 and says why', { timeout: 20_000 }, async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'emulator/src/main.ts', '--seed', 'full'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    const [code] = await once(child, 'exit');
    assert.equal(code, 2);
    assert.match(stderr, /--seed must be demo or empty/);
  });
});
