// The extension's sizes: the .vsix as `npm run package` builds it, and each production bundle inside it.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The .vsix and the bundles it ships. The .vsix is built here every time (`npm run package`, a few seconds; its
 * prepublish step rebuilds dist/ for production), so its size is never a stale file's; dist/ is rebuilt for
 * development after.
 */
export function bundleSizes(notMeasured: Record<string, string>) {
  const vsix = path.join('dist-vsix', 'hcp-terraform-runs.vsix');
  console.log('building the .vsix (npm run package)…');
  execFileSync('npm', ['run', '--silent', 'package'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const sizes: Record<string, number> = {};
  // The bundles inside the .vsix are production builds: rebuild them if dist/ holds a development build.
  execFileSync(process.execPath, ['esbuild.mjs', '--production'], { stdio: ['ignore', 'ignore', 'inherit'] });
  for (const name of readdirSync('dist').filter((file) => file.endsWith('.js') && file !== 'emulator.js')) sizes[name] = statSync(path.join('dist', name)).size;
  execFileSync(process.execPath, ['esbuild.mjs'], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (existsSync(vsix)) sizes.vsix = statSync(vsix).size;
  else notMeasured.vsix = '`npm run package` did not produce dist-vsix/hcp-terraform-runs.vsix';
  return sizes;
}
