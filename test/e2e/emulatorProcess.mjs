// Starts dist/emulator.js as its own process (as a user would), waits until it has written its --info file, and
// writes a Terraform credentials file for its host into `home`, the way `terraform login` does.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';

export async function startEmulatorProcess(home, { speed = 1, tokenRole = 'owner' } = {}) {
  const infoFile = path.join(home, 'emulator.json');
  const child = spawn(
    process.execPath,
    ['dist/emulator.js', '--seed', 'demo', '--port', '0', '--speed', String(speed), '--info', infoFile],
    { stdio: ['ignore', 'pipe', 'inherit'], detached: true },
  );
  // The emulator prints "wrote <info file>" once it listens and the file is complete: wait for that line.
  const info = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the emulator did not start within 15 s')), 15_000);
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      if (line !== `wrote ${infoFile}`) return;
      clearTimeout(timer);
      lines.close();
      child.stdout.resume(); // keep draining what it prints later
      resolve(JSON.parse(readFileSync(infoFile, 'utf8')));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the emulator exited (${code}) before it was ready`));
    });
  });
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
