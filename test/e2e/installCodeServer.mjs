// Installs code-server (a real VS Code: workbench in the browser, Node extension host) on demand into an ignored
// cache folder, the way @vscode/test-electron caches VS Code in .vscode-test/. It is not a devDependency: ~300 MB
// that only the end-to-end run needs. See ../shared/reference/vscode-e2e-recipe.md for why each step exists.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const codeServerVersion = '4.100.3'; // VS Code 1.100.3: the newest that runs on Node 20; our engines.vscode minimum.
export const cacheDir = path.resolve('.cache', `code-server-${codeServerVersion}`);
export const codeServerBin = path.join(cacheDir, 'node_modules', 'code-server', 'out', 'node', 'entry.js');

export function installCodeServer() {
  if (existsSync(codeServerBin)) return codeServerBin;
  const rg = '/usr/bin/rg';
  if (!existsSync(rg)) throw new Error('ripgrep is missing: apt-get install -y ripgrep (code-server needs it, and cannot download it here)');
  // @vscode/ripgrep's postinstall downloads from GitHub; Debian's rg 13.0.0 is the version it wants, so seed its cache.
  const ripgrepCache = '/tmp/vscode-ripgrep-cache-1.15.11';
  const archive = path.join(ripgrepCache, 'ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz');
  if (!existsSync(archive)) {
    mkdirSync(ripgrepCache, { recursive: true });
    execFileSync('tar', ['czf', archive, '-C', '/usr/bin', 'rg']);
  }
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(path.join(cacheDir, 'package.json'), JSON.stringify({ name: 'code-server-cache', private: true }));
  console.log(`[e2e] installing code-server ${codeServerVersion} into ${path.relative(process.cwd(), cacheDir)} (once)`);
  const result = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', `code-server@${codeServerVersion}`], {
    cwd: cacheDir,
    stdio: 'inherit',
    env: {
      ...process.env,
      npm_config_unsafe_perm: 'true', // its postinstall refuses to run as root otherwise
      npm_config_yes: 'true', // node-pty's postinstall runs `npx node-gyp`
    },
  });
  if (result.status !== 0 || !existsSync(codeServerBin)) {
    throw new Error(`code-server ${codeServerVersion} failed to install (exit ${result.status}); it needs Debian's libkrb5-dev and ripgrep`);
  }
  return codeServerBin;
}

if (import.meta.url === `file://${process.argv[1]}`) installCodeServer();
