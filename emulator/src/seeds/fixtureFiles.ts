// The files of test/fixtures/demo-app, so the seeded `demo-app` configuration version holds the same code the
// demo folder has and simulated plans name its real resources. The folder is found next to the sources (tsx)
// or next to dist/emulator.js; when it is absent (an installed copy without tests) the version stays empty and
// plans fall back to generic resource names.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

let cached: Map<string, Buffer> | undefined;

export function demoAppFiles(): Map<string, Buffer> {
  if (cached) return new Map(cached);
  const candidates = [
    path.resolve(__dirname, '../../../test/fixtures/demo-app'),
    path.resolve(__dirname, '../test/fixtures/demo-app'),
    path.resolve(process.cwd(), 'test/fixtures/demo-app'),
  ];
  const folder = candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isDirectory());
  cached = new Map();
  if (folder) {
    for (const name of readdirSync(folder)) {
      const file = path.join(folder, name);
      if (statSync(file).isFile() && /\.(tf|tfvars|md)$/.test(name)) cached.set(name, readFileSync(file));
    }
  }
  return new Map(cached);
}
