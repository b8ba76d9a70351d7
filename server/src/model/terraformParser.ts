// Loads web-tree-sitter and the Terraform grammar (both WebAssembly) and hands out one shared parser.
// Where the files are: the bundle (dist/server.js) has them beside it (esbuild.mjs copies them); run from
// sources (tests via tsx) they are in node_modules. Callers can also name the folder explicitly.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parserInput } from './parserInput';
import { SlicingParsers } from './slicingParsers';
import { TreeSitterPoints } from './positions';
import { stepSliceMs, twoTurns } from './steps';
import { evaluateTreeSitterRuntime, registerLanguage } from './treeSitter';
import type { Language, ParseOptions, Parser, Tree, TreeSitterRuntime } from './treeSitter';

export const runtimeWasmName = 'web-tree-sitter.wasm';
export const terraformWasmName = 'tree-sitter-terraform.wasm';
/** web-tree-sitter's CommonJS code, evaluated afresh for each runtime (see treeSitter.ts). */
export const runtimeScriptName = 'web-tree-sitter.cjs';

export interface WasmLocation {
  runtimeWasm: string;
  terraformWasm: string;
  runtimeScript: string;
}

export interface TerraformParserOptions {
  /** A folder holding web-tree-sitter.wasm, tree-sitter-terraform.wasm and web-tree-sitter.cjs. */
  wasmDirectory?: string;
}

const files = (location: WasmLocation) => [location.runtimeWasm, location.terraformWasm, location.runtimeScript];

/** Finds the files: the explicit folder, else beside this code (the bundle), else node_modules. */
export function resolveWasmLocation(options: TerraformParserOptions = {}): WasmLocation {
  const tried: string[] = [];
  const candidates: WasmLocation[] = [];
  if (options.wasmDirectory) candidates.push(inDirectory(options.wasmDirectory));
  else {
    if (typeof __dirname === 'string') candidates.push(inDirectory(__dirname));
    const fromNodeModules = resolveFromNodeModules();
    if (fromNodeModules) candidates.push(fromNodeModules);
  }
  for (const candidate of candidates) {
    if (files(candidate).every((file) => existsSync(file))) return candidate;
    tried.push(...files(candidate).map((file) => path.dirname(file)));
  }
  throw new Error(
    `Cannot find ${runtimeWasmName}, ${terraformWasmName} and ${runtimeScriptName} (looked in: ${[...new Set(tried)].join(', ') || 'nowhere'}). ` +
      'Build with `node esbuild.mjs` (it copies them beside dist/server.js) or pass wasmDirectory.',
  );
}

function inDirectory(directory: string): WasmLocation {
  return {
    runtimeWasm: path.join(directory, runtimeWasmName),
    terraformWasm: path.join(directory, terraformWasmName),
    runtimeScript: path.join(directory, runtimeScriptName),
  };
}

function resolveFromNodeModules(): WasmLocation | undefined {
  try {
    return {
      runtimeWasm: require.resolve(`web-tree-sitter/${runtimeWasmName}`),
      terraformWasm: path.join(path.dirname(require.resolve('@tree-sitter-grammars/tree-sitter-hcl/package.json')), terraformWasmName),
      runtimeScript: path.join(path.dirname(require.resolve(`web-tree-sitter/${runtimeWasmName}`)), runtimeScriptName),
    };
  } catch {
    return undefined; // not installed next to us (a shipped .vsix has no node_modules)
  }
}

/** One initialised copy of web-tree-sitter, the Terraform language loaded into it, and a parser of it. */
interface LoadedRuntime {
  runtime: TreeSitterRuntime;
  language: Language;
  parser: Parser;
  /** The parsers of parses in slices (parseInSlices), one per parse under way. */
  slicing: SlicingParsers;
  /** The options object handed to Emscripten, which becomes its Module: HEAPU8 there views the current memory. */
  module: EmscriptenModule;
}

/** What of Emscripten's Module this file reads or replaces: its memory, and the exports that free a tree or a parser. */
interface EmscriptenModule {
  HEAPU8?: Uint8Array;
  _ts_tree_delete?: (address: number) => void;
  _ts_parser_delete?: (address: number) => void;
}

/**
 * Once a recycle has replaced `runtime`, freeing anything inside it is wasted work: its whole memory becomes garbage
 * with its last tree. And it is slow work, on the server's thread: freeing a 1 MB file's tree node by node takes
 * 20-25 ms, 50-100 ms when a brace too many broke it, whether a change lets the tree go on a keystroke or
 * web-tree-sitter's FinalizationRegistry does it for a tree merely dropped, at whatever moment the collector runs
 * (measured: 7 such trees dropped with their runtime stalled the event loop 680 ms). web-tree-sitter calls these
 * exports through the Module object at each call, so replacing them there makes every later delete() of that
 * runtime's trees and parsers a no-op. Reading its trees still works: nothing in its memory is freed or reused.
 */
function stopFreeing(runtime: LoadedRuntime): void {
  const noop = () => undefined;
  runtime.module._ts_tree_delete = noop;
  runtime.module._ts_parser_delete = noop;
}

async function loadRuntime(location: WasmLocation): Promise<LoadedRuntime> {
  const runtime = evaluateTreeSitterRuntime(location.runtimeScript);
  const module = { locateFile: (file: string) => (file === runtimeWasmName ? location.runtimeWasm : file) } as EmscriptenModule;
  await runtime.Parser.init(module);
  // The bytes, not the path: given a path web-tree-sitter reads it with a dynamic import(), which a copy evaluated
  // outside Node's module loader cannot make.
  const language = await runtime.Language.load(readFileSync(location.terraformWasm));
  registerLanguage(language, runtime);
  return { runtime, language, parser: newParser({ runtime, language }), slicing: new SlicingParsers(() => newParser({ runtime, language })), module };
}

/** What a parse in slices asks between two slices. */
export interface SliceControl {
  /** True once the text being parsed is out of date (a newer change came): the parse stops and gives nothing. */
  cancelled(): boolean;
  /** Gives the event loop its turns between two slices (twoTurns unless a test steps in). */
  pause?(): Promise<void>;
}

function newParser(loaded: Pick<LoadedRuntime, 'runtime' | 'language'>): Parser {
  const parser = new loaded.runtime.Parser();
  parser.setLanguage(loaded.language);
  return parser;
}

/**
 * One parser for the whole process: parsing is synchronous, so folders can share it. Its WebAssembly runtime can be
 * swapped for a fresh one (recycle) to give back memory that trees of large files left behind.
 */
export class TerraformParser {
  private current: LoadedRuntime;
  private recycles = 0;
  private recycling: Promise<void> | undefined;
  private freshHeap = 0;

  private constructor(
    private readonly location: WasmLocation,
    loaded: LoadedRuntime,
  ) {
    this.current = loaded;
  }

  static async load(location: WasmLocation): Promise<TerraformParser> {
    const created = new TerraformParser(location, await loadRuntime(location));
    created.checkPositionUnits();
    created.freshHeap = created.heapBytes();
    return created;
  }

  /** The memory of a runtime that holds no tree yet (what recycling can get back to). */
  get freshHeapBytes(): number {
    return this.freshHeap;
  }

  /** How many times the runtime was replaced (recycle). */
  get generation(): number {
    return this.recycles;
  }

  /** Bytes of WebAssembly memory the current runtime holds: it grows with the largest trees held at once, never shrinks. */
  heapBytes(): number {
    return this.current.module.HEAPU8?.byteLength ?? 0;
  }

  /** Whether `tree` was parsed by the current runtime (not by one a recycle has replaced). */
  owns(tree: Tree): boolean {
    return tree.language === this.current.language;
  }

  /** Parses `text`; with `oldTree` (already `edit`ed to match `text`) only the edited region is re-parsed. */
  parse(text: string, oldTree?: Tree): Tree {
    // A tree of a runtime since replaced lives in another WebAssembly heap: it cannot be re-used, so parse afresh.
    const reusable = oldTree && this.owns(oldTree) ? oldTree : null;
    const tree = this.parseInput(text, reusable);
    if (!tree) throw new Error('The Terraform parser returned no syntax tree (no language set or parsing cancelled).');
    return tree;
  }

  /**
   * Parses as `parse` does, `stepSliceMs` at a time (as stepped work runs), giving the event loop a turn between slices: the requests that
   * arrive meanwhile are answered at once, not after the whole parse (a 1 MB file left broken by a brace takes
   * tree-sitter 0.4-1.5 s to recover from). A parse that took more than one slice gives the event loop one more turn
   * before it returns, since what the caller does with its tree takes long too. Undefined when `control.cancelled()`
   * said so at one of those turns, or when a recycle replaced the runtime meanwhile (the old tree went with it); the
   * caller parses again later.
   */
  async parseInSlices(text: string, oldTree: Tree | undefined, control: SliceControl): Promise<Tree | undefined> {
    const runtime = this.current;
    const reusable = oldTree && this.owns(oldTree) ? oldTree : null;
    const parser = runtime.slicing.take();
    // tree-sitter asks whether to stop every ~100 operations (~0.1 ms); stopped, it resumes where it was on the next
    // call with the same parser (web-tree-sitter's parse does not reset it).
    let deadline = 0;
    const progressCallback = () => performance.now() > deadline;
    const input = parserInput(text);
    let tree: Tree | null = null;
    let slices = 0;
    try {
      for (;;) {
        deadline = performance.now() + stepSliceMs;
        slices++;
        tree = parser.parse(input.read, reusable, { progressCallback });
        if (tree) break;
        await (control.pause ?? twoTurns)();
        if (this.current !== runtime || control.cancelled()) return undefined;
      }
    } finally {
      if (tree) input.parsed();
      runtime.slicing.give(parser, !tree);
    }
    if (slices > 1) {
      await (control.pause ?? twoTurns)();
      if (this.current !== runtime || control.cancelled()) {
        tree.delete();
        return undefined;
      }
    }
    return tree;
  }

  /**
   * Replaces the runtime with a fresh one, whose memory holds nothing yet. `reparse` starts right after the switch, in
   * the same turn, and re-parses every tree kept beyond a turn (in slices, when it returns a promise: every parse
   * from the switch on is the new runtime's), deleting the old ones: the old runtime's memory is garbage once its
   * last tree is deleted. From the switch on, deleting a tree of the old runtime frees nothing in it (stopFreeing).
   * Overlapping calls share one recycle.
   */
  recycle(reparse: () => void | Promise<void>): Promise<void> {
    this.recycling ??= (async () => {
      try {
        const next = await loadRuntime(this.location);
        const previous = this.current;
        this.current = next;
        this.recycles++;
        stopFreeing(previous);
        // Its parsers go at the switch too: a parse in slices still under way there stops at its next slice (it sees
        // the switch), and a half-done one's reset (ts_parser_reset frees it in WebAssembly, 0.3-4 ms for 1 MB) must
        // not fire from its timer during the re-parse.
        previous.parser.delete();
        previous.slicing.dispose();
        await reparse();
      } finally {
        this.recycling = undefined;
      }
    })();
    return this.recycling;
  }

  /**
   * Parses only `text[startIndex, endIndex)`, with positions still counted from the start of `text`. Used to
   * isolate a broken block from the blocks around it.
   */
  parseRegion(text: string, startIndex: number, endIndex: number, points: Pick<TreeSitterPoints, 'pointAt'> = new TreeSitterPoints(text)): Tree {
    const range = { startIndex, endIndex, startPosition: points.pointAt(startIndex), endPosition: points.pointAt(endIndex) };
    const tree = this.parseInput(text, null, { includedRanges: [range] });
    if (!tree) throw new Error('The Terraform parser returned no syntax tree for a region.');
    return tree;
  }

  /** Reads `text` through parserInput.ts, so the node texts the facts keep do not keep this version of the text alive. */
  private parseInput(text: string, oldTree: Tree | null, options?: ParseOptions): Tree | null {
    const input = parserInput(text);
    try {
      return this.current.parser.parse(input.read, oldTree, options);
    } finally {
      input.parsed();
    }
  }

  /**
   * The model hands tree-sitter rows/columns straight to LSP, which counts UTF-16 code units. web-tree-sitter
   * parses JavaScript strings as UTF-16 and reports those units; if a future binding reported UTF-8 bytes every
   * range after a non-ASCII character would drift, so refuse to start rather than mislead.
   */
  private checkPositionUnits(): void {
    const probe = 'a = "é😀" + b';
    const tree = this.parse(probe);
    try {
      const reference = tree.rootNode.descendantsOfType('variable_expr').find((node) => node.text === 'b');
      if (!reference || reference.startIndex !== probe.lastIndexOf('b') || reference.startPosition.column !== probe.lastIndexOf('b')) {
        throw new Error('web-tree-sitter does not report positions in UTF-16 code units; the code model needs updating for this version.');
      }
    } finally {
      tree.delete();
    }
  }
}

let loading: Promise<TerraformParser> | undefined;

/**
 * Initialises web-tree-sitter once per process and returns the shared parser. A failed load is not cached, so a
 * caller can fix the location (e.g. run the build) and try again.
 */
export function loadTerraformParser(options: TerraformParserOptions = {}): Promise<TerraformParser> {
  loading ??= (async () => {
    return TerraformParser.load(resolveWasmLocation(options));
  })().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}
