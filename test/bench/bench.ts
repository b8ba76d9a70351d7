// `npm run bench`: drives the built server (dist/server.js --stdio) as an editor would, on generated inputs, and
// prints each latency as p50/p99 and as a ratio to a no-op request measured in the same server (the transport's
// floor), then each target as met or missed. Writes test-results/bench.json. Not part of `npm test`: speed is
// measured here, never asserted in tests. Usage: node --import tsx test/bench/bench.ts [--quick] [--no-watcher]
// [--only=one-mb,four-mb,four-mb-analysed,workspace,workspace-variables,watcher,sizes,activation] [--no-profile]
// (--no-watcher skips the run watcher's scenario, which plays a compressed hour in 5 real minutes, 1 with --quick;
// --only=watcher runs that scenario alone)
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import {
  CodeActionRequest,
  CompletionRequest,
  DidChangeConfigurationNotification,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  HoverRequest,
} from 'vscode-languageserver-protocol/node';
import type { CompletionList } from 'vscode-languageserver-protocol/node';
import { startBenchServer, summary } from './client';
import type { BenchServer } from './client';
import { writeLargeFile, writeModule } from './inputs';
import { summarizeProfile } from './profile';
import type { ProfileLine, ProfileSummary, ProfileWindow } from './profile';
import { runWatcherScenario } from './runWatcher';
import { activationScenario } from './activation';
import { workspaceVariablesScenario } from './workspaceVariables';

const quick = process.argv.includes('--quick');
/** `--only=one-mb,workspace`: just those scenarios (one-mb, four-mb, four-mb-analysed, workspace, workspace-variables, watcher, sizes, activation). */
const only = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length).split(',');
const wanted = (scenario: string) => !only || only.includes(scenario);
/**
 * Every language-server scenario runs under V8's sampling profiler (1 ms interval, a few percent of overhead), so a
 * missed target is printed with where the server's CPU went while it was measured. `--no-profile` turns it off.
 */
const profiling = !process.argv.includes('--no-profile');
const profileRoot = path.resolve('test-results', 'bench-profiles');
/** Per scenario and phase, the windows (µs) its profile is cut to: one per phase, or the slowest samples' own. */
const profileWindows: Record<string, Record<string, ProfileWindow[]>> = {};
/** The server's profile and this process read the same monotonic clock (µs): windows cut the profile to a phase. */
const clockUs = () => Number(process.hrtime.bigint() / 1000n);
const profileArgs = (label: string) => (profiling ? ['--cpu-prof', `--cpu-prof-dir=${path.join(profileRoot, label)}`] : []);
function markWindow(label: string, phase: string, from: number) {
  (profileWindows[label] ??= {})[phase] = [{ fromUs: from, toUs: clockUs() }];
}
const typingIntervalMs = 100; // 10 characters a second
/** The profile phase of the slowest 5% of keystrokes, each from its change to its last answer. */
const slowestKeystrokes = 'the slowest keystrokes';
const results: Record<string, unknown> = {};
const notMeasured: Record<string, string> = {};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (value: number | undefined) => (value === undefined || Number.isNaN(value) ? undefined : Math.round(value * 100) / 100);

async function timed<T>(work: () => Promise<T>): Promise<[number, T]> {
  const started = performance.now();
  const value = await work();
  return [performance.now() - started, value];
}

async function floor(server: BenchServer, count = 100): Promise<{ p50: number; p99: number; n: number }> {
  for (let i = 0; i < 10; i++) await server.noop(); // warm up
  const samples: number[] = [];
  for (let i = 0; i < count; i++) samples.push(await server.noop());
  return summary(samples);
}

/** 1 MB (and 4 MB) file: open → first diagnostics, requests at rest and while typing, diagnostics after an edit. */
async function largeFileScenario(root: string, label: string, bytes: number, typing: boolean, maxFileSizeMB?: number) {
  const input = await writeLargeFile(root, label, bytes);
  const uri = pathToFileURL(input.file).href;
  // No workspace folder: the file's folder is read because the file opens, so the first diagnostics follow the open.
  const server = await startBenchServer(undefined, { nodeArgs: profileArgs(label) });
  const out: Record<string, unknown> = { bytes: input.text.length, ...(maxFileSizeMB ? { maxFileSizeMB } : {}) };
  /** Over the size limit the file is kept as text only: no tree, no facts to move. */
  const overLimit = bytes > (maxFileSizeMB ?? 2) * 1024 * 1024;
  try {
    if (maxFileSizeMB) {
      await server.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: { hcpTerraform: { analysis: { maxFileSizeMB } } } });
    }
    const noop = await floor(server);
    out.noop = noop;
    let version = 1;
    // A server that labels diagnostics with the document version answers each version (a file over the size limit
    // with none); an older one is matched by content.
    const firstDiagnostics = server.nextDiagnostics((params) => params.uri === uri && (params.version !== undefined || params.diagnostics.length > 0));
    const opened = performance.now();
    await server.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'terraform', version, text: input.text } });
    out.openToFirstDiagnosticsMs = (await firstDiagnostics) - opened;
    out.memoryAfterOpen = server.memory();

    // Diagnostics after an edit: rename the undeclared reference, wait for the diagnostics naming the new name.
    const editSamples: number[] = [];
    const editsFrom = clockUs();
    let current = 'undeclared_top';
    // Enough samples that p99 is not simply the slowest one (this machine alone puts single 5-15 ms stalls in a no-op).
    const edits = quick ? 5 : typing ? 50 : 20;
    for (let i = 0; i < edits; i++) {
      const next = `undeclared_${i}`;
      const line = input.undeclaredLine;
      const start = '  top = var.'.length;
      const expectedVersion = version + 1;
      const published = server.nextDiagnostics(
        (params) =>
          params.uri === uri &&
          (params.version !== undefined
            ? params.version >= expectedVersion
            : params.diagnostics.some((d) => String(typeof d.message === 'string' ? d.message : d.message.value).includes(`"${next}"`))),
      );
      const sent = performance.now();
      await server.connection.sendNotification(DidChangeTextDocumentNotification.type, {
        textDocument: { uri, version: ++version },
        contentChanges: [{ range: { start: { line, character: start }, end: { line, character: start + current.length } }, text: next }],
      });
      editSamples.push((await published) - sent);
      current = next;
      await sleep(50);
    }
    out.diagnosticsAfterEdit = summary(editSamples);
    markWindow(label, 'edits', editsFrom);

    // Enter near the top: a blank line added inside the second block, then taken away again. Every block after it
    // moves a line (30,000 references in 1 MB), which a rename on one line never shows.
    const enterSamples: number[] = [];
    const enterFrom = clockUs();
    const blankLine = input.text.split('\n').indexOf('', 4); // the blank line inside the first resource block
    for (let i = 0; !overLimit && i < (quick ? 4 : typing ? 20 : 4); i++) {
      const expectedVersion = version + 1;
      const published = server.nextDiagnostics((params) => params.uri === uri && params.version !== undefined && params.version >= expectedVersion);
      const change =
        i % 2 === 0
          ? { range: { start: { line: blankLine, character: 0 }, end: { line: blankLine, character: 0 } }, text: '\n' }
          : { range: { start: { line: blankLine, character: 0 }, end: { line: blankLine + 1, character: 0 } }, text: '' };
      const sent = performance.now();
      await server.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version: ++version }, contentChanges: [change] });
      enterSamples.push((await published) - sent);
      await sleep(50);
    }
    if (enterSamples.length > 0) out.diagnosticsAfterEnter = summary(enterSamples);
    markWindow(label, 'enter', enterFrom);

    if (typing) {
      const completionAt = (character: number) =>
        server.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line: input.typingLine, character } });
      const hover = () => server.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: input.hoverAt });
      const codeAction = () =>
        server.connection.sendRequest(CodeActionRequest.type, {
          textDocument: { uri },
          range: { start: { line: input.hoverAt.line, character: 0 }, end: { line: input.hoverAt.line, character: 0 } },
          context: { diagnostics: [] },
        });

      // At rest: a `var.` already typed on the typing line.
      const prefix = '  extra = var.';
      await server.connection.sendNotification(DidChangeTextDocumentNotification.type, {
        textDocument: { uri, version: ++version },
        contentChanges: [{ range: { start: { line: input.typingLine, character: 0 }, end: { line: input.typingLine, character: 0 } }, text: prefix }],
      });
      await sleep(500);
      const rest = { completion: [] as number[], hover: [] as number[], codeAction: [] as number[] };
      let items = 0;
      let responseBytes = 0;
      for (let i = 0; i < (quick ? 10 : 100); i++) {
        const [ms, list] = await timed(() => completionAt(prefix.length));
        rest.completion.push(ms);
        items = (list as CompletionList | null)?.items.length ?? 0;
        responseBytes = JSON.stringify(list).length;
        rest.hover.push((await timed(hover))[0]);
        rest.codeAction.push((await timed(codeAction))[0]);
      }
      out.atRest = { completion: summary(rest.completion), hover: summary(rest.hover), codeAction: summary(rest.codeAction), completionItems: items, completionBytes: responseBytes };

      // Typing at 10 characters a second after the `var.`; every keystroke is followed at once by completion,
      // hover and code actions, as an editor sends them.
      // About 160 keystrokes (16 s): p99 of each request is then its second slowest, not its slowest.
      const typed = Array.from({ length: 15 }, (_, i) => `v_${12 + i}`).join(' + var.');
      const during = { completion: [] as number[], hover: [] as number[], codeAction: [] as number[] };
      const typingFrom = clockUs();
      let column = prefix.length;
      /** Each keystroke from its change sent to its last answer, with that answer's time: the slowest are profiled on their own. */
      const keystrokes: { window: ProfileWindow; ms: number }[] = [];
      for (const character of quick ? typed.slice(0, 12) : typed) {
        const keyFrom = clockUs();
        await server.connection.sendNotification(DidChangeTextDocumentNotification.type, {
          textDocument: { uri, version: ++version },
          contentChanges: [{ range: { start: { line: input.typingLine, character: column }, end: { line: input.typingLine, character: column } }, text: character }],
        });
        column++;
        const [completionMs, hoverMs, actionMs] = await Promise.all([timed(() => completionAt(column)), timed(hover), timed(codeAction)]);
        keystrokes.push({ window: { fromUs: keyFrom, toUs: clockUs() }, ms: Math.max(completionMs[0], hoverMs[0], actionMs[0]) });
        during.completion.push(completionMs[0]);
        during.hover.push(hoverMs[0]);
        during.codeAction.push(actionMs[0]);
        await sleep(typingIntervalMs);
      }
      out.whileTyping = { completion: summary(during.completion), hover: summary(during.hover), codeAction: summary(during.codeAction) };
      markWindow(label, 'typing', typingFrom);
      // What p99 is made of: the slowest 5% of keystrokes (8 of 158), each from its change to its last answer.
      const slowest = [...keystrokes].sort((a, b) => b.ms - a.ms).slice(0, Math.max(2, Math.ceil(keystrokes.length * 0.05)));
      (profileWindows[label] ??= {})[slowestKeystrokes] = slowest.map((keystroke) => keystroke.window);
    }
    out.memoryAfterEdits = server.memory();
    await server.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
    await server.noop();
  } finally {
    await server.stop().catch(() => server.child.kill());
  }
  return out;
}

/**
 * Memory after a large file is typed in and closed, in a server of its own without the profiler (its buffers count
 * in the server's memory: ~50 MB more after the 1 MB file). The typing makes the text differ from the disk's, so the
 * close reads the file from disk again, as it does for a user.
 */
async function closeMemoryScenario(root: string, label: string, bytes: number, maxFileSizeMB?: number) {
  const input = await writeLargeFile(root, `${label}-memory`, bytes);
  const uri = pathToFileURL(input.file).href;
  const overLimit = bytes > (maxFileSizeMB ?? 2) * 1024 * 1024;
  const server = await startBenchServer(undefined);
  const out: Record<string, unknown> = {};
  try {
    if (maxFileSizeMB) {
      await server.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: { hcpTerraform: { analysis: { maxFileSizeMB } } } });
    }
    await floor(server, 20);
    out.memoryBeforeOpen = server.memory();
    let version = 1;
    const firstDiagnostics = server.nextDiagnostics((params) => params.uri === uri && (params.version !== undefined || params.diagnostics.length > 0));
    await server.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'terraform', version, text: input.text } });
    await firstDiagnostics;
    let column = 0;
    for (const character of 'locals_x = 1\n') {
      const position = { line: input.typingLine, character: column++ };
      await server.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version: ++version }, contentChanges: [{ range: { start: position, end: position }, text: character }] });
      await sleep(typingIntervalMs);
    }
    await server.noop();
    out.memoryAfterEdits = server.memory();
    // After the close the server starts a fresh parser runtime once edits have paused (documents/parserRecycling.ts):
    // measured once it says so (or 30 s at most: re-reading a 4 MB file from disk, which the close waits for, takes
    // ~10 s), then after the index worker that re-read it has stopped (500 ms idle) and the old runtime was collected.
    // (A file over the size limit never had a tree: nothing to wait for.)
    const recycled = overLimit ? Promise.resolve(undefined) : server.nextLog(/fresh runtime/, 30_000);
    const closed = performance.now();
    await server.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
    const recycledAt = await recycled;
    out.recycledAfterCloseMs = overLimit ? 'no tree (over the size limit)' : recycledAt === undefined ? 'not within 30 s' : recycledAt - closed;
    await server.noop();
    await sleep(1500);
    out.memoryAfterClose = server.memory();
    // V8 gives its emptied heap pages back on its own schedule: its memory reducer runs ~10 s after the heap
    // stops growing (a forced collection does not shrink the heap). What an idle server holds is measured then.
    await sleep(15_000);
    out.memoryAfterCloseSettled = server.memory();
  } finally {
    await server.stop().catch(() => server.child.kill());
  }
  return out;
}

/** 1,000 files in 20 folders: first diagnostics of an open file while the rest indexes, and the full index. */
async function workspaceScenario(root: string) {
  const input = await writeModule(root);
  const out: Record<string, unknown> = { files: input.files.length };
  const published = new Set<string>();
  let allPublished!: () => void;
  const everyFile = new Promise<void>((resolve) => (allPublished = resolve));
  const started = performance.now();
  const server = await startBenchServer(input.folder, { nodeArgs: profileArgs('workspace') });
  const indexingFrom = clockUs();
  out.initializeMs = performance.now() - started;
  try {
    const openUri = pathToFileURL(input.openFile).href;
    const fileUris = new Set(input.files.map((file) => pathToFileURL(file).href));
    const openDiagnostics = server.nextDiagnostics((params) => params.uri === openUri && params.diagnostics.length > 0);
    server.onDiagnostics((params) => {
      if (!fileUris.has(params.uri) || params.diagnostics.length === 0) return;
      published.add(params.uri);
      if (published.size === fileUris.size) allPublished();
    });
    const opened = performance.now();
    await server.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: openUri, languageId: 'terraform', version: 1, text: await readFile(input.openFile, 'utf8') },
    });
    // The noop floor measured while indexing runs: how long a request waits behind the indexer.
    const busy: number[] = [];
    let indexing = true;
    const probe = (async () => {
      while (indexing) {
        busy.push(await server.noop());
        await sleep(20);
      }
    })();
    out.openToFirstDiagnosticsMs = (await openDiagnostics) - opened;
    await everyFile;
    indexing = false;
    await probe;
    out.fullIndexMs = performance.now() - started;
    markWindow('workspace', 'indexing', indexingFrom);
    out.noopWhileIndexing = summary(busy);
    out.noop = await floor(server);
    await sleep(1000);
    out.memoryAfterIndexing = server.memory();
    const [ms, list] = await timed(() =>
      server.connection.sendRequest(CompletionRequest.type, { textDocument: { uri: openUri }, position: { line: 0, character: 0 } }),
    );
    out.completionAtFirstLineMs = ms;
    void list;
    await server.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri: openUri } });
    await server.noop();
    await sleep(1000);
    out.memoryAfterClose = server.memory();
  } finally {
    await server.stop().catch(() => server.child.kill());
  }
  return out;
}

/**
 * The .vsix and the bundles it ships. The .vsix is built here every time (`npm run package`, a few seconds; its
 * prepublish step rebuilds dist/ for production), so its size is never a stale file's; dist/ is rebuilt for
 * development after.
 */
function bundleSizes() {
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

interface Target {
  name: string;
  value: number | undefined;
  limit: number;
  unit: string;
  why?: string;
  /** The scenario's server profile, cut to the phase the target measures: printed when the target is missed. */
  profile?: { label: string; phase: string };
}

/** The scenario's .cpuprofile (written by the server as it exits), summarised over one phase. */
function phaseProfile(label: string, phase: string): ProfileSummary | undefined {
  const directory = path.join(profileRoot, label);
  const windows = profileWindows[label]?.[phase];
  if (!profiling || !windows || !existsSync(directory)) return undefined;
  const file = readdirSync(directory).find((name) => name.endsWith('.cpuprofile'));
  return file ? summarizeProfile(path.join(directory, file), 6, windows) : undefined;
}

function check(all: Target[]) {
  // With --only, the targets of the scenarios left out are not listed as "not measured".
  const targets = only ? all.filter((target) => target.value !== undefined) : all;
  const rows = targets.map((target) => {
    const met = target.value !== undefined && !Number.isNaN(target.value) && target.value <= target.limit;
    const profile = !met && target.value !== undefined && target.profile ? phaseProfile(target.profile.label, target.profile.phase) : undefined;
    return { ...target, value: round(target.value), met, ...(profile ? { profile: { ...target.profile, ...profile } } : {}) };
  });
  console.log('\ntargets');
  for (const row of rows) {
    const shown = row.value === undefined ? 'not measured' : `${row.value} ${row.unit}`;
    console.log(`  ${row.met ? 'met   ' : 'MISSED'}  ${row.name}: ${shown} (target ≤ ${row.limit} ${row.unit})${!row.met && row.why ? ` — ${row.why}` : ''}`);
    if ('profile' in row && row.profile && 'self' in row.profile) {
      const line = (entries: ProfileLine[]) => entries.map((entry) => `${entry.name} ${entry.ms} ms (${entry.share}%)`).join('; ');
      // With the windows' length beside the time sampled: a server busy for a small part of them was not what kept
      // the answer waiting (the slowest keystrokes are mostly moments the server did not run at all).
      console.log(`          profile of the server during ${row.profile.phase} (busy ${row.profile.totalMs} ms of ${row.profile.windowMs} ms):`);
      console.log(`            own time: ${line(row.profile.self)}`);
      console.log(`            server functions, with what they call: ${line(row.profile.inclusive)}`);
    }
  }
  return rows;
}

/** The run watcher's targets. Both run lists count together: the service gives them one 30/min budget. */
function watcherTargets(watch: Record<string, any> | undefined): Target[] {
  return [
    { name: 'run watcher: 429s (200 workspaces)', value: watch?.rateLimited, limit: 0, unit: '' },
    { name: 'run watcher: run lists in the busiest minute (workspace + organization lists)', value: watch?.runLists.perMinuteMax, limit: 30, unit: '/min' },
    { name: 'run watcher: requests in the busiest second', value: watch?.requests.perSecondMax, limit: 30, unit: '/s' },
    {
      name: 'run watcher: freshness p99 (state change → runsChanged)',
      value: watch?.freshnessMs.all.p99,
      limit: 3000,
      unit: 'ms',
      why: 'new runs are found by the organization\'s run list, read every 3 s (20 of the 30 lists a minute); a miss means a read or the server answered late (see the profile of newRun and followedRun)',
    },
    { name: 'run watcher: freshness p99 of runs already followed', value: watch?.freshnessMs.followedRun.p99, limit: 3000, unit: 'ms' },
  ];
}

async function main() {
  if (!existsSync('dist/server.js')) throw new Error('dist/server.js is missing: run `node esbuild.mjs` first');
  const root = await mkdtemp(path.join(os.tmpdir(), 'hcp-bench-'));
  await rm(profileRoot, { recursive: true, force: true });
  try {
    console.log(`bench inputs in ${root}${quick ? ' (quick)' : ''}`);
    if (wanted('one-mb')) {
      const oneMb = { ...(await largeFileScenario(root, 'one-mb', 1_000_000, true)), ...(await closeMemoryScenario(root, 'one-mb', 1_000_000)) };
      console.log('1 MB file:', JSON.stringify(oneMb, null, 1));
      results.oneMb = oneMb;
    }
    if (wanted('four-mb')) {
      const fourMb = { ...(await largeFileScenario(root, 'four-mb', 4_000_000, false)), ...(await closeMemoryScenario(root, 'four-mb', 4_000_000)) };
      console.log('4 MB file (default settings):', JSON.stringify(fourMb, null, 1));
      results.fourMb = fourMb;
    }
    if (!quick && wanted('four-mb-analysed')) {
      const analysed = { ...(await largeFileScenario(root, 'four-mb-analysed', 4_000_000, false, 8)), ...(await closeMemoryScenario(root, 'four-mb-analysed', 4_000_000, 8)) };
      console.log('4 MB file, analysed (maxFileSizeMB 8):', JSON.stringify(analysed, null, 1));
      results.fourMbAnalysed = analysed;
    }
    if (wanted('workspace')) {
      const workspace = await workspaceScenario(root);
      console.log('1,000-file workspace:', JSON.stringify(workspace, null, 1));
      results.workspace = workspace;
    }
    if (wanted('workspace-variables')) {
      const variables = await workspaceVariablesScenario(root, { quick });
      console.log('emulator workspace with 2,000 variables:', JSON.stringify(variables, null, 1));
      results.workspaceVariables = variables;
    }
    if (!process.argv.includes('--no-watcher') && wanted('watcher')) {
      const watcher = await runWatcherScenario({ realMinutes: quick ? 1 : 5 });
      console.log('run watcher, 200 workspaces:', JSON.stringify(watcher, null, 1));
      results.runWatcher = watcher;
    } else notMeasured.runWatcher = 'skipped (--no-watcher or --only)';
  } finally {
    await rm(root, { recursive: true, force: true });
  }
  results.bundles = wanted('sizes') ? bundleSizes() : {};
  console.log('sizes (bytes):', JSON.stringify(results.bundles));
  const activation = wanted('activation')
    ? await activationScenario(quick ? 1 : 3).catch((error: unknown) => ({ notMeasured: `code-server run failed: ${String((error as Error)?.message ?? error).split('\n')[0]}` }))
    : { notMeasured: 'skipped (--only)' };
  if ('notMeasured' in activation) notMeasured.activation = activation.notMeasured;
  else {
    results.activation = activation;
    console.log('activation in VS Code (ms):', JSON.stringify(activation, null, 1));
  }

  const one = (results.oneMb ?? {}) as Record<string, any>;
  const four = (results.fourMb ?? {}) as Record<string, any>;
  const ws = (results.workspace ?? {}) as Record<string, any>;
  const watch = results.runWatcher as Record<string, any> | undefined;
  const act = results.activation as Record<string, any> | undefined;
  const vars = (results.workspaceVariables ?? {}) as Record<string, any>;
  const floorMs = (one.noop?.p50 ?? NaN) as number;
  const ratio = (ms: number | undefined) => (ms === undefined ? undefined : ms / Math.max(floorMs, 0.01));
  const targets = check([
    { name: 'completion p99 while typing (1 MB)', value: one.whileTyping?.completion.p99, limit: 5, unit: 'ms', profile: { label: 'one-mb', phase: slowestKeystrokes } },
    { name: 'completion p99 / no-op while typing (1 MB)', value: ratio(one.whileTyping?.completion.p99), limit: 10, unit: '×' },
    { name: 'hover p99 while typing (1 MB)', value: one.whileTyping?.hover.p99, limit: 5, unit: 'ms', profile: { label: 'one-mb', phase: slowestKeystrokes } },
    { name: 'hover p99 / no-op while typing (1 MB)', value: ratio(one.whileTyping?.hover.p99), limit: 10, unit: '×' },
    { name: 'diagnostics after an edit p99 (1 MB)', value: one.diagnosticsAfterEdit?.p99, limit: 20, unit: 'ms', profile: { label: 'one-mb', phase: 'edits' } },
    { name: 'diagnostics after Enter near the top p99 (1 MB: every later block moves a line)', value: one.diagnosticsAfterEnter?.p99, limit: 20, unit: 'ms', profile: { label: 'one-mb', phase: 'enter' } },
    { name: 'first diagnostics of an open file (1,000 files)', value: ws.openToFirstDiagnosticsMs, limit: 300, unit: 'ms', profile: { label: 'workspace', phase: 'indexing' } },
    { name: 'full index (1,000 files)', value: ws.fullIndexMs, limit: 1000, unit: 'ms', profile: { label: 'workspace', phase: 'indexing' } },
    { name: 'memory after indexing', value: ws.memoryAfterIndexing?.rssMb, limit: 150, unit: 'MB' },
    { name: 'memory after closing (≤ 120% of after indexing)', value: ws.memoryAfterClose?.rssMb, limit: (ws.memoryAfterIndexing?.rssMb ?? 0) * 1.2, unit: 'MB' },
    { name: 'diagnostics after an edit p99 (4 MB, default settings)', value: four.diagnosticsAfterEdit?.p99, limit: 20, unit: 'ms', profile: { label: 'four-mb', phase: 'edits' } },
    { name: 'memory after closing the 4 MB file, settled (15 s)', value: four.memoryAfterCloseSettled?.rssMb, limit: 150, unit: 'MB' },
    { name: 'memory after closing the 1 MB file, settled (15 s; its facts stay: it is on disk)', value: one.memoryAfterCloseSettled?.rssMb, limit: 150, unit: 'MB' },
    ...watcherTargets(watch),
    { name: '`var.` completion, workspace with 2,000 variables: items in the list', value: vars.afterVarDot?.items, limit: 200, unit: 'items' },
    {
      name: '`var.` completion, workspace with 2,000 variables: a cut list not marked isIncomplete (1 = not marked)',
      value: vars.afterVarDot ? (vars.afterVarDot.items >= 200 && !vars.afterVarDot.isIncomplete ? 1 : 0) : undefined,
      limit: 0,
      unit: '',
    },
    { name: 'activation in VS Code, p50 (its Running Extensions figure: code loading + activate())', value: act?.vscodeActivationMs.p50, limit: 100, unit: 'ms' },
    { name: 'activation in VS Code, slowest launch', value: act?.vscodeActivationMs.max, limit: 100, unit: 'ms' },
    { name: 'activation as the extension measures it, p50 (module evaluation + activate())', value: act?.ownActivationMs.p50, limit: 100, unit: 'ms' },
    { name: 'vsix size', value: (results.bundles as Record<string, number>).vsix !== undefined ? (results.bundles as Record<string, number>).vsix / 1e6 : undefined, limit: 2, unit: 'MB' },
  ]);
  console.log('\nnot measured');
  for (const [what, why] of Object.entries(notMeasured)) console.log(`  ${what}: ${why}`);
  await mkdir('test-results', { recursive: true });
  await writeFile('test-results/bench.json', JSON.stringify({ date: new Date().toISOString(), quick, results, targets, notMeasured }, null, 2));
  console.log('\nwrote test-results/bench.json');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
