// Checks the packaged extension (run after `npm run package`, which test/run-all.mjs does): it holds what a user
// needs and nothing else, and its bundles import nothing from test/ or emulator/.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { zipEntries } from './zipEntries';

const vsix = 'dist-vsix/hcp-terraform-runs.vsix';

describe('the packaged .vsix', () => {
  const entries = zipEntries(vsix).filter((name) => name.startsWith('extension/')).map((name) => name.slice('extension/'.length));

  test('holds the manifest, the bundles (client, server, its indexing worker, undici), the wasm files and the code of web-tree-sitter the server loads, the grammar and the icon', () => {
    for (const needed of [
      'package.json',
      'readme.md',
      'dist/client.js',
      'dist/server.js',
      'dist/indexWorker.js',
      'dist/undici.js',
      'dist/web-tree-sitter.wasm',
      'dist/tree-sitter-terraform.wasm',
      'dist/web-tree-sitter.cjs',
      'syntaxes/hcp-terraform-log.tmLanguage.json',
      'media/hcp-terraform.svg',
    ]) {
      assert.ok(entries.some((e) => e.toLowerCase() === needed.toLowerCase()), `${needed} is missing from the vsix: ${entries.join(', ')}`);
    }
  });

  test('holds no tests, fixtures, emulator, sources, sourcemaps or node_modules', () => {
    const forbidden = entries.filter(
      (entry) =>
        /(^|\/)(test|tests|fixtures|emulator|node_modules|client\/src|server\/src|out)(\/|$)/.test(entry) ||
        /emulator/i.test(entry) ||
        /\.(ts|map|mjs|tsbuildinfo)$/.test(entry) ||
        /^\.(ci|git|vscode)/.test(entry),
    );
    assert.deepEqual(forbidden, []);
  });

  test('ships only allow-listed files', () => {
    const allowed = /^(package\.json|readme\.md|license(\.txt)?|changelog\.md|dist\/(client|server|indexWorker|undici)\.js|dist\/web-tree-sitter\.cjs|dist\/[\w-]+\.wasm|syntaxes\/[\w-]+\.tmLanguage\.json|media\/[\w-]+\.svg)$/i;
    assert.deepEqual(entries.filter((entry) => !allowed.test(entry)), []);
  });
});

describe('the shipped bundles', () => {
  const inputs: Record<string, string[]> = JSON.parse(readFileSync('out/bundle-inputs.json', 'utf8'));

  test('are the client, the server, its indexing worker and undici only', () => {
    assert.deepEqual(Object.keys(inputs).sort(), ['client', 'indexWorker', 'server', 'undici']);
  });

  test('the server leaves undici to its own bundle and zod\'s locales out, so its start compiles neither', () => {
    const undici = inputs.server.filter((file) => file.includes('node_modules/undici/'));
    const locales = inputs.server.filter((file) => /node_modules\/zod\/.*\/locales\/(?!en\.js$)/.test(file));
    assert.deepEqual({ undici, locales }, { undici: [], locales: [] });
    assert.ok(inputs.undici.some((file) => file.startsWith('node_modules/undici/')), 'dist/undici.js holds undici');
  });

  test('import nothing from test/ or emulator/', () => {
    for (const [bundle, files] of Object.entries(inputs)) {
      assert.ok(files.length > 0, `${bundle} has no inputs`);
      assert.deepEqual(files.filter((file) => /^(test|emulator)\//.test(file)), [], `${bundle} imports test or emulator code`);
    }
  });

  test('the server and worker bundles never pull in vscode', () => {
    for (const bundle of ['server', 'indexWorker']) {
      assert.deepEqual(inputs[bundle].filter((file) => /(^|\/)vscode(\/|$)|node_modules\/@types\/vscode/.test(file)), [], bundle);
    }
  });
});
