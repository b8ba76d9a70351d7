// The large-file scenarios: a 1 MB (or 4 MB) file opened, edited, typed in and closed, with the memory the server
// keeps after closing it in a server of its own.
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
import { clockUs, floor, markWindow, profileArgs, profileWindows, quick, sleep, slowestKeystrokes, slowestPauseRequests, timed, typingIntervalMs } from './benchSession';
import { startBenchServer, summary } from './client';
import type { BenchServer } from './client';
import { writeLargeFile } from './inputs';
import type { ProfileWindow } from './profile';

/** 1 MB (and 4 MB) file: open → first diagnostics, requests at rest and while typing, diagnostics after an edit. */
export async function largeFileScenario(root: string, label: string, bytes: number, typing: boolean, maxFileSizeMB?: number) {
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
    // Enough samples that p99 is not simply the slowest one (this machine alone puts single 5-15 ms stalls in a
    // no-op): up to 99 samples the 99th percentile is the slowest (client.ts percentile); of 200 it is the third.
    const edits = quick ? 5 : 200;
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
    for (let i = 0; !overLimit && i < (quick ? 4 : typing ? 200 : 4); i++) {
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
      // The transport's own share at the typing's rhythm, measured here where the document is settled (after the
      // typing, the whole-file parse that confirms the last keystroke's block would fall among the no-ops). The
      // no-op above is measured back to back, on warm caches; after a pause the same round trip takes several times
      // as long, in any server (a minimal vscode-languageserver one too), and three at once longer still.
      out.noopAtTypingRhythm = await noopsAtRhythm(server, quick ? 12 : 158);

      let column = prefix.length;
      /**
       * Types `typed` at 10 characters a second from `column` on the typing line; every keystroke is followed at once
       * by completion, hover and code actions, as an editor sends them. Its profile phase is `phase`, and the slowest
       * 5% of its keystrokes (each from its change to its last answer) are profiled on their own.
       */
      const typeAndAsk = async (typed: string, phase: string, slowestPhase?: string) => {
        const during = { completion: [] as number[], hover: [] as number[], codeAction: [] as number[] };
        const typingFrom = clockUs();
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
        markWindow(label, phase, typingFrom);
        if (slowestPhase) {
          const slowest = [...keystrokes].sort((a, b) => b.ms - a.ms).slice(0, Math.max(2, Math.ceil(keystrokes.length * 0.05)));
          (profileWindows[label] ??= {})[slowestPhase] = slowest.map((keystroke) => keystroke.window);
        }
        return { completion: summary(during.completion), hover: summary(during.hover), codeAction: summary(during.codeAction) };
      };
      // About 160 keystrokes (16 s) after the `var.`: p99 of each request is then its second slowest, not its slowest.
      out.whileTyping = await typeAndAsk(Array.from({ length: 15 }, (_, i) => `v_${12 + i}`).join(' + var.'), 'typing', slowestKeystrokes);
      // Then a closing brace the block did not need: the resource block ends early, the rest of the file no longer
      // parses as blocks, and every keystroke needs the whole file parsed, which tree-sitter's error recovery makes
      // 0.3-1.5 s for 1 MB (an editor that does not pair braces, or a brace deleted, does this).
      out.whileTypingUnbalanced = await typeAndAsk(' } locals { tags = { name = "x-${var.v_2}" } } resource "terraform_data" "more" { input = var.v_3 } locals { y = ', 'typing unbalanced');
      // Then pauses in a file left broken: a keystroke at a time (the `}` leaves a brace too many, the comment keeps
      // it so), and through each pause a completion request every 20 ms until that keystroke's diagnostics come,
      // while the server parses the whole file (0.3-1.5 s of tree-sitter's recovery, a slice at a time) and reads
      // its tree. An editor asks for completion, hover and code actions whenever the cursor moves meanwhile.
      const pauses = { completion: [] as number[], diagnosticsMs: [] as number[] };
      const pausesFrom = clockUs();
      const pauseRequests: { window: ProfileWindow; ms: number }[] = [];
      for (const character of quick ? '1 }' : '1 } # paused') {
        const expectedVersion = version + 1;
        let settled = false;
        const published = server.nextDiagnostics((params) => params.uri === uri && params.version !== undefined && params.version >= expectedVersion, 60_000).finally(() => (settled = true));
        const sent = performance.now();
        await server.connection.sendNotification(DidChangeTextDocumentNotification.type, {
          textDocument: { uri, version: ++version },
          contentChanges: [{ range: { start: { line: input.typingLine, character: column }, end: { line: input.typingLine, character: column } }, text: character }],
        });
        column++;
        while (!settled) {
          const requestFrom = clockUs();
          const [ms] = await timed(() => completionAt(column));
          pauses.completion.push(ms);
          pauseRequests.push({ window: { fromUs: requestFrom, toUs: clockUs() }, ms });
          await sleep(20);
        }
        pauses.diagnosticsMs.push((await published) - sent);
      }
      markWindow(label, 'pauses unbalanced', pausesFrom);
      // The slowest 2% of those requests, each from its sending to its answer: what they waited behind.
      const slowestRequests = [...pauseRequests].sort((a, b) => b.ms - a.ms).slice(0, Math.max(2, Math.ceil(pauseRequests.length * 0.02)));
      (profileWindows[label] ??= {})[slowestPauseRequests] = slowestRequests.map((request) => request.window);
      out.pausesUnbalanced = { completion: summary(pauses.completion), slowestMs: Math.max(...pauses.completion), diagnosticsAfterKeystroke: summary(pauses.diagnosticsMs) };
    }
    out.memoryAfterEdits = server.memory();
    await server.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
    await server.noop();
  } finally {
    await server.stop().catch(() => server.child.kill());
  }
  return out;
}

/** Three no-ops sent together every 100 ms, as the requests after a keystroke are: the slowest of each three. */
async function noopsAtRhythm(server: BenchServer, count: number) {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    samples.push(Math.max(...(await Promise.all([server.noop(), server.noop(), server.noop()]))));
    await sleep(typingIntervalMs);
  }
  return summary(samples);
}

/**
 * Memory after a large file is typed in and closed, in a server of its own without the profiler (its buffers count
 * in the server's memory: ~50 MB more after the 1 MB file). The typing makes the text differ from the disk's, so the
 * close reads the file from disk again, as it does for a user.
 */
export async function closeMemoryScenario(root: string, label: string, bytes: number, maxFileSizeMB?: number) {
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
