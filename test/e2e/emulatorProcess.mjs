// Starts dist/emulator.js as its own process (as a user would), waits until it has written its --info file, and
// writes a Terraform credentials file for its host into `home`, the way `terraform login` does.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export async function startEmulatorProcess(home, { speed = 1, tokenRole = 'owner' } = {}) {
  const infoFile = path.join(home, 'emulator.json');
  const child = spawn(
    process.execPath,
    ['dist/emulator.js', '--seed', 'demo', '--port', '0', '--speed', String(speed), '--info', infoFile],
    { stdio: ['ignore', 'ignore', 'inherit'], detached: true },
  );
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`the emulator exited (${code}) before it was ready`);
  });
  // The info file appears once the emulator listens: wait for it with a bound, re-checking every 50 ms.
  const ready = (async () => {
    for (let attempt = 0; attempt < 200; attempt++) {
      try {
        return JSON.parse(readFileSync(infoFile, 'utf8'));
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    throw new Error('the emulator did not write its info file within 10 s');
  })();
  const info = await Promise.race([ready, exited]);
  const host = new URL(info.url).host;
  mkdirSync(path.join(home, '.terraform.d'), { recursive: true });
  writeFileSync(
    path.join(home, '.terraform.d', 'credentials.tfrc.json'),
    JSON.stringify({ credentials: { [host]: { token: info.tokens[tokenRole] } } }, null, 2),
  );
  return {
    info,
    infoFile,
    stop() {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    },
  };
}
