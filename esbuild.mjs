// Bundles every entry point to dist/ (and, with --tests, the in-editor test suite to out/).
// Type checking is separate (`npm run typecheck`): esbuild only strips types.
//   node esbuild.mjs               development build with sourcemaps
//   node esbuild.mjs --production  minified, no sourcemaps, no emulator (what the .vsix ships)
//   node esbuild.mjs --watch       rebuild on change
//   node esbuild.mjs --tests       the extension-host mocha suite, to out/test/e2e/suite/
import * as esbuild from 'esbuild';
import { copyFile, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const { version } = JSON.parse(readFileSync('package.json', 'utf8'));

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const tests = process.argv.includes('--tests');

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  minify: production,
  sourcemap: production ? false : 'linked',
  logLevel: 'warning',
  define: { __HCP_TERRAFORM_VERSION__: JSON.stringify(version) },
};

/**
 * The wasm files web-tree-sitter loads at run time: they cannot be bundled, so they sit beside dist/server.js.
 * So does web-tree-sitter's own code: the server evaluates a fresh copy of it for each parser runtime it starts
 * (server/src/model/treeSitter.ts), which a bundled copy, evaluated once, would not allow.
 */
const wasmFiles = [
  'node_modules/web-tree-sitter/web-tree-sitter.wasm',
  'node_modules/web-tree-sitter/web-tree-sitter.cjs',
  'node_modules/@tree-sitter-grammars/tree-sitter-hcl/tree-sitter-terraform.wasm',
];

async function copyWasm() {
  await mkdir('dist', { recursive: true });
  await Promise.all(wasmFiles.map((file) => copyFile(file, path.join('dist', path.basename(file)))));
}

/** Every client file's `import … from 'vscode'` goes through client/src/vscodeNamespace.ts (see why there). */
const sharedVscodeNamespace = {
  name: 'shared-vscode-namespace',
  setup(build) {
    const shared = path.resolve('client/src/vscodeNamespace.ts');
    build.onResolve({ filter: /^vscode$/ }, (args) =>
      args.importer === shared || args.kind === 'require-call' ? { path: 'vscode', external: true } : { path: shared },
    );
  },
};

/**
 * undici (about half of the server's code) is only needed once the server talks to the service (api/http.ts loads
 * it with the first request): it is bundled as dist/undici.js, beside the server, so starting the server does not
 * compile it. An editor without a token or a linked workspace never loads it.
 */
const undiciBeside = {
  name: 'undici-beside',
  setup(build) {
    build.onResolve({ filter: /^undici$/ }, () => ({ path: './undici.js', external: true }));
  },
};

/**
 * zod re-exports every one of its ~40 locales (`z.locales`), about 250 KB of the server's code that the server never
 * uses: its messages are its own, and zod's English default is imported by zod itself, not through that index.
 */
const zodWithoutLocaleIndex = {
  name: 'zod-without-locale-index',
  setup(build) {
    build.onResolve({ filter: /\/locales\/index\.js$/ }, (args) => (/node_modules[\\/]zod[\\/]/.test(args.importer) ? { path: 'zod-locales', namespace: 'zod-locales' } : undefined));
    build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, () => ({ contents: 'export {};', loader: 'js' }));
  },
};

function productBuilds() {
  const builds = [
    { ...common, entryPoints: { client: 'client/src/extension.ts' }, outdir: 'dist', external: ['vscode'], plugins: [sharedVscodeNamespace] },
    // The server and its indexing worker (a worker thread needs a script of its own).
    { ...common, entryPoints: { server: 'server/src/main.ts', indexWorker: 'server/src/indexing/indexWorker.ts' }, outdir: 'dist', plugins: [undiciBeside, zodWithoutLocaleIndex] },
    { ...common, entryPoints: { undici: 'node_modules/undici/index.js' }, outdir: 'dist' },
  ];
  // The emulator backs tests and the demo; it never ships in the .vsix.
  if (!production) builds.push({ ...common, entryPoints: { emulator: 'emulator/src/main.ts' }, outdir: 'dist' });
  return builds;
}

async function testBuilds() {
  const suiteDir = 'test/e2e/suite';
  const entries = (await readdir(suiteDir)).filter((f) => f.endsWith('.ts')).map((f) => path.join(suiteDir, f));
  // One file per entry so mocha can load each test file; mocha itself and vscode come from the host at run time.
  return [{ ...common, sourcemap: 'inline', entryPoints: entries, outdir: 'out/test/e2e/suite', external: ['vscode', 'mocha'] }];
}

const builds = tests ? await testBuilds() : productBuilds();
// A production build starts from an empty dist/ so no development leftover (the emulator, sourcemaps) can be packaged.
if (production) await rm('dist', { recursive: true, force: true });
// Likewise the test suite: a deleted test file must not live on in out/.
if (tests) await rm('out/test/e2e/suite', { recursive: true, force: true });
if (!tests) await copyWasm();

if (watch) {
  const contexts = await Promise.all(builds.map((options) => esbuild.context(options)));
  await Promise.all(contexts.map((context) => context.watch()));
  console.log('[esbuild] watching for changes');
} else {
  const results = await Promise.all(builds.map((options) => esbuild.build({ ...options, metafile: true })));
  // The inputs of every bundle, so the packaging test can prove nothing from test/ or emulator/ is shipped.
  await mkdir('out', { recursive: true });
  // Keyed by entry name (a build can have several: the server and its indexing worker), from each output's inputs.
  const inputs = {};
  results.forEach((result, i) => {
    const nameOf = Object.fromEntries(Object.entries(builds[i].entryPoints).map(([name, source]) => [source, name]));
    for (const output of Object.values(result.metafile.outputs)) {
      if (output.entryPoint && nameOf[output.entryPoint]) inputs[nameOf[output.entryPoint]] = Object.keys(output.inputs);
    }
  });
  await writeFile(path.join('out', tests ? 'test-bundle-inputs.json' : 'bundle-inputs.json'), JSON.stringify(inputs, null, 2));
}
