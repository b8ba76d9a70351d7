// Runs test/emulator/error-table.curl.sh (the spec §7 error table, row by row, with curl) against the emulator
// CLI bundle, started as a user would: every row must print PASS and the script must exit 0.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { describe, test } from 'node:test';

const bundle = path.resolve('dist/emulator.js');
const script = path.resolve('test/emulator/error-table.curl.sh');
const hasCurl = spawnSync('curl', ['--version'], { stdio: 'ignore' }).status === 0;

/** The spec's section 7 rows, as the script names them. */
const rows = [
  'create-run 404',
  'create-run 422',
  'get-run-details 404',
  'apply 409',
  'discard 409',
  'cancel 409',
  'cancel 404',
  'force-cancel 409',
  'force-cancel 404',
  'force-execute 403',
  'force-execute 409',
  'force-execute 404',
  'generate-organization-token 404',
  'delete-organization-token 404',
];

describe('spec §7 error table, reproduced with curl', () => {
  test(
    'every row returns its status code against dist/emulator.js',
    { timeout: 60_000, skip: hasCurl ? false : 'curl is not installed: the error-table script needs it' },
    async () => {
      assert.ok(existsSync(bundle), 'dist/emulator.js is missing: run `node esbuild.mjs` first');
      const dir = await mkdtemp(path.join(tmpdir(), 'emulator-error-table-'));
      const infoFile = path.join(dir, 'info.json');
      const emulator = spawn(process.execPath, [bundle, '--seed', 'demo', '--port', '0', '--info', infoFile], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      try {
        // The emulator prints "wrote <info file>" once it listens and the file is written.
        const reader = createInterface({ input: emulator.stdout! });
        let ready = false;
        for await (const line of reader) {
          if (line.startsWith('wrote ')) {
            ready = true;
            break;
          }
        }
        assert.ok(ready, 'the emulator exited before writing its info file');
        emulator.stdout!.resume(); // keep draining its output

        const child = spawn('bash', [script, infoFile], { stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout!.on('data', (chunk) => (stdout += chunk));
        child.stderr!.on('data', (chunk) => (stderr += chunk));
        const [code] = await once(child, 'exit');
        const lines = stdout.trim().split('\n').filter(Boolean);
        const report = `script output:\n${stdout}${stderr ? `stderr:\n${stderr}` : ''}`;
        assert.equal(code, 0, report);
        assert.equal(lines.length, rows.length, report);
        for (const line of lines) assert.match(line, /^PASS /, report);
        const printed = lines.map((line) => line.split(' ').slice(1, 3).join(' '));
        assert.deepEqual([...printed].sort(), [...rows].sort(), report);
      } finally {
        if (emulator.exitCode === null) {
          const exited = once(emulator, 'exit');
          emulator.kill('SIGTERM');
          await exited;
        }
        await rm(dir, { recursive: true, force: true });
      }
    },
  );
});
