// Starts one code-server on loopback with fresh user-data, extensions and XDG folders, in its own process group so
// that stop() ends everything it started (killing only the parent leaves a file watcher behind).
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';

const quietSettings = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'update.mode': 'none',
};

/**
 * options.settings: user settings merged over the quiet defaults; options.env: extra environment (e.g. HOME);
 * options.extensions: folders installed as extensions (symlinked as <publisher>.<name>-<version>);
 * options.port: 0 (any free port) unless given.
 */
export async function startCodeServer(codeServerBin, { startupTimeoutMs = 60_000, settings = {}, env = {}, extensions = [], port = 0 } = {}) {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hcp-e2e-'));
  const dirs = Object.fromEntries(['ud', 'ext', 'config', 'data', 'cache'].map((name) => [name, path.join(home, name)]));
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  // A quiet workbench: no welcome walkthrough over the editor, no telemetry banner, no marketplace lookups.
  mkdirSync(path.join(dirs.ud, 'User'), { recursive: true });
  writeFileSync(path.join(dirs.ud, 'User', 'settings.json'), JSON.stringify({ ...quietSettings, ...settings }, null, 2));
  for (const { folder, id } of extensions) symlinkSync(folder, path.join(dirs.ext, id));
  const child = spawn(
    process.execPath,
    [
      codeServerBin,
      '--bind-addr', `127.0.0.1:${port}`,
      '--auth', 'none',
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--user-data-dir', dirs.ud,
      '--extensions-dir', dirs.ext,
    ],
    {
      detached: true, // a new session and process group: stop() kills the whole group
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env, XDG_CONFIG_HOME: dirs.config, XDG_DATA_HOME: dirs.data, XDG_CACHE_HOME: dirs.cache },
    },
  );
  let output = '';
  const stop = () => {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
    rmSync(home, { recursive: true, force: true });
  };
  try {
    const url = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`code-server did not start within ${startupTimeoutMs} ms:\n${output}`)), startupTimeoutMs);
      const onData = (chunk) => {
        output += chunk;
        const match = /HTTP server listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      once(child, 'exit').then(([code]) => {
        clearTimeout(timer);
        reject(new Error(`code-server exited with ${code} before listening:\n${output}`));
      });
    });
    return { url, stop, output: () => output, userDataDir: dirs.ud };
  } catch (error) {
    stop();
    throw error;
  }
}
