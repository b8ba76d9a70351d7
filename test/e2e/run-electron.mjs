// The same extension-host suite under @vscode/test-electron, for machines that can download VS Code
// (it cannot here: Microsoft's update server is unreachable; use `npm run test:e2e` there).
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runTests } from '@vscode/test-electron';

const folder = mkdtempSync(path.join(os.tmpdir(), 'hcp-e2e-workspace-'));
cpSync(path.resolve('test/fixtures/e2e-workspace'), folder, { recursive: true });
try {
  await runTests({
    version: process.env.VSCODE_VERSION ?? '1.100.3', // the engines.vscode minimum
    extensionDevelopmentPath: path.resolve('.'),
    extensionTestsPath: path.resolve('out/test/e2e/suite/index.js'),
    launchArgs: [folder, '--disable-extensions', '--disable-workspace-trust'],
  });
} catch (error) {
  console.error(`[e2e:electron] ${error?.message ?? error}`);
  process.exitCode = 1;
} finally {
  rmSync(folder, { recursive: true, force: true });
}
