// The shipped server is one CommonJS bundle with the wasm files (and web-tree-sitter's code) beside it and no node_modules. This builds the
// model the same way (esbuild, cjs, node20) into a temporary folder and runs it there, so the wasm lookup is
// checked as it will run, not only from sources.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { build } from 'esbuild';
import { resolveWasmLocation } from '../../server/src/model';
import { demoAppFolder } from './helpers';

test('a bundled model finds the wasm files beside the bundle and indexes the demo folder', async () => {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'model-bundle-'));
  const entry = path.join(folder, 'entry.ts');
  const modelIndex = path.resolve(__dirname, '../../server/src/model/index.ts');
  writeFileSync(
    entry,
    `import { loadTerraformParser, ModuleFolderModel } from ${JSON.stringify(modelIndex)};
     (async () => {
       const model = await ModuleFolderModel.load({ folder: process.argv[2], parser: await loadTerraformParser() });
       console.log(JSON.stringify({ variables: model.index.variableNames(), workspace: model.serviceLink().workspace }));
     })().catch((error) => { console.error(String(error)); process.exit(1); });`,
  );
  await build({ entryPoints: [entry], bundle: true, platform: 'node', target: 'node20', format: 'cjs', outfile: path.join(folder, 'server.js'), logLevel: 'silent' });

  const withoutWasm = spawnSync(process.execPath, [path.join(folder, 'server.js'), demoAppFolder], { encoding: 'utf8', cwd: folder });
  assert.notEqual(withoutWasm.status, 0, 'without the wasm files beside it the bundle must fail...');
  assert.match(withoutWasm.stderr, /Cannot find web-tree-sitter\.wasm, tree-sitter-terraform\.wasm and web-tree-sitter\.cjs/, '...with a message saying what is missing');

  const location = resolveWasmLocation();
  copyFileSync(location.runtimeWasm, path.join(folder, 'web-tree-sitter.wasm'));
  copyFileSync(location.terraformWasm, path.join(folder, 'tree-sitter-terraform.wasm'));
  copyFileSync(location.runtimeScript, path.join(folder, 'web-tree-sitter.cjs'));
  const run = spawnSync(process.execPath, [path.join(folder, 'server.js'), demoAppFolder], { encoding: 'utf8', cwd: folder });
  assert.equal(run.status, 0, run.stderr);
  const output = JSON.parse(run.stdout) as { variables: string[]; workspace: { kind: string; name: { value: string } } };
  assert.ok(output.variables.includes('replica_count'));
  assert.equal(output.workspace.name.value, 'demo-app');
});
