// Loads web-tree-sitter and the Terraform grammar (both WebAssembly) and hands out one shared parser.
// Where the .wasm files are: the bundle (dist/server.js) has them beside it (esbuild.mjs copies them); run from
// sources (tests via tsx) they are in node_modules. Callers can also name the folder explicitly.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { TreeSitterPoints } from './positions';
import { Language, Parser } from './treeSitter';
import type { Tree } from './treeSitter';

export const runtimeWasmName = 'web-tree-sitter.wasm';
export const terraformWasmName = 'tree-sitter-terraform.wasm';

export interface WasmLocation {
  runtimeWasm: string;
  terraformWasm: string;
}

export interface TerraformParserOptions {
  /** A folder holding both web-tree-sitter.wasm and tree-sitter-terraform.wasm. */
  wasmDirectory?: string;
}

/** Finds both wasm files: the explicit folder, else beside this code (the bundle), else node_modules. */
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
    if (existsSync(candidate.runtimeWasm) && existsSync(candidate.terraformWasm)) return candidate;
    tried.push(path.dirname(candidate.runtimeWasm), path.dirname(candidate.terraformWasm));
  }
  throw new Error(
    `Cannot find ${runtimeWasmName} and ${terraformWasmName} (looked in: ${[...new Set(tried)].join(', ') || 'nowhere'}). ` +
      'Build with `node esbuild.mjs` (it copies them beside dist/server.js) or pass wasmDirectory.',
  );
}

function inDirectory(directory: string): WasmLocation {
  return { runtimeWasm: path.join(directory, runtimeWasmName), terraformWasm: path.join(directory, terraformWasmName) };
}

function resolveFromNodeModules(): WasmLocation | undefined {
  try {
    return {
      runtimeWasm: require.resolve(`web-tree-sitter/${runtimeWasmName}`),
      terraformWasm: path.join(path.dirname(require.resolve('@tree-sitter-grammars/tree-sitter-hcl/package.json')), terraformWasmName),
    };
  } catch {
    return undefined; // not installed next to us (a shipped .vsix has no node_modules)
  }
}

/** One parser for the whole process: parsing is synchronous, so folders can share it. */
export class TerraformParser {
  private constructor(private readonly parser: Parser) {}

  static create(language: Language): TerraformParser {
    const parser = new Parser();
    parser.setLanguage(language);
    const created = new TerraformParser(parser);
    created.checkPositionUnits();
    return created;
  }

  /** Parses `text`; with `oldTree` (already `edit`ed to match `text`) only the edited region is re-parsed. */
  parse(text: string, oldTree?: Tree): Tree {
    const tree = this.parser.parse(text, oldTree ?? null);
    if (!tree) throw new Error('The Terraform parser returned no syntax tree (no language set or parsing cancelled).');
    return tree;
  }

  /**
   * Parses only `text[startIndex, endIndex)`, with positions still counted from the start of `text`. Used to
   * isolate a broken block from the blocks around it.
   */
  parseRegion(text: string, startIndex: number, endIndex: number, points: Pick<TreeSitterPoints, 'pointAt'> = new TreeSitterPoints(text)): Tree {
    const range = { startIndex, endIndex, startPosition: points.pointAt(startIndex), endPosition: points.pointAt(endIndex) };
    const tree = this.parser.parse(text, null, { includedRanges: [range] });
    if (!tree) throw new Error('The Terraform parser returned no syntax tree for a region.');
    return tree;
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
    const location = resolveWasmLocation(options);
    await Parser.init({ locateFile: (file: string) => (file === runtimeWasmName ? location.runtimeWasm : file) });
    const language = await Language.load(location.terraformWasm);
    return TerraformParser.create(language);
  })().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}
