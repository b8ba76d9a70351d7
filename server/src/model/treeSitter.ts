// The one place that loads web-tree-sitter's code, as a fresh copy on each call (a "runtime").
// Why fresh copies: web-tree-sitter keeps one WebAssembly instance per copy of its code, and a WebAssembly memory
// only grows. After a 1 MB file's trees (~64 MB each) are deleted their pages stay in the heap for as long as the
// instance lives. A new copy of the code gets a new instance; once the old one's trees are gone, its whole memory
// is garbage (see TerraformParser.recycle).
// How: the package's CommonJS build is read from disk (dist/ in the bundle, which esbuild.mjs copies there;
// node_modules from sources) and evaluated as a module function, the way Node loads a CommonJS file, but without
// Node's module cache, which would hand back the same copy.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';
import type * as WebTreeSitter from 'web-tree-sitter';

export type { Node, ParseOptions, Point, QueryMatch, Tree } from 'web-tree-sitter';
export type Parser = WebTreeSitter.Parser;
export type Language = WebTreeSitter.Language;
export type Query = WebTreeSitter.Query;

/** One copy of web-tree-sitter's classes. Objects of one copy must not be handed to another (each has its own heap). */
export interface TreeSitterRuntime {
  Parser: typeof WebTreeSitter.Parser;
  Language: typeof WebTreeSitter.Language;
  Edit: typeof WebTreeSitter.Edit;
  Query: typeof WebTreeSitter.Query;
}

type ModuleFunction = (exports: object, require: NodeJS.Require, module: { exports: object }, filename: string, dirname: string) => void;

const compiled = new Map<string, ModuleFunction>();

/** A new, independent copy of web-tree-sitter's code from `scriptPath` (its CommonJS build); not yet initialised. */
export function evaluateTreeSitterRuntime(scriptPath: string): TreeSitterRuntime {
  let moduleFunction = compiled.get(scriptPath);
  if (!moduleFunction) {
    const source = readFileSync(scriptPath, 'utf8');
    // Compiled once per process; each run of the function below is a new copy with its own module state.
    const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: scriptPath });
    moduleFunction = script.runInThisContext() as ModuleFunction;
    compiled.set(scriptPath, moduleFunction);
  }
  const module = { exports: {} };
  moduleFunction(module.exports, createRequire(scriptPath), module, scriptPath, path.dirname(scriptPath));
  const { Parser, Language, Edit, Query } = module.exports as typeof WebTreeSitter;
  return { Parser, Language, Edit, Query };
}

const runtimes = new WeakMap<Language, TreeSitterRuntime>();

/** Notes which copy a language was loaded by, so code holding only a tree can make queries and edits of that copy. */
export function registerLanguage(language: Language, runtime: TreeSitterRuntime): void {
  runtimes.set(language, runtime);
}

/** The copy of web-tree-sitter a language (and so every tree parsed with it) belongs to. */
export function runtimeOf(language: Language): TreeSitterRuntime {
  const runtime = runtimes.get(language);
  if (!runtime) throw new Error('This tree-sitter language was not loaded by loadTerraformParser.');
  return runtime;
}
