// Loads the run-log grammar the way VS Code does (vscode-textmate on the oniguruma wasm) so tests can check
// the scopes a theme will see, without starting an editor.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import * as oniguruma from 'vscode-oniguruma';
import * as textmate from 'vscode-textmate';

export const repoRoot = path.resolve(__dirname, '..', '..');
export const grammarPath = path.join(repoRoot, 'syntaxes', 'hcp-terraform-log.tmLanguage.json');
export const scopeName = 'source.hcp-terraform-log';

export interface LogToken {
  text: string;
  scopes: string[];
}

let onigLoaded: Promise<textmate.IOnigLib> | undefined;

/** The wasm may only be loaded once per process; every caller shares the same library. */
export function loadOnigLib(): Promise<textmate.IOnigLib> {
  onigLoaded ??= (async () => {
    const wasm = await readFile(path.join(repoRoot, 'node_modules', 'vscode-oniguruma', 'release', 'onig.wasm'));
    await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer);
    return {
      createOnigScanner: (patterns: string[]) => new oniguruma.OnigScanner(patterns),
      createOnigString: (text: string) => new oniguruma.OnigString(text),
    };
  })();
  return onigLoaded;
}

export async function loadLogGrammar(): Promise<textmate.IGrammar> {
  const registry = new textmate.Registry({
    onigLib: loadOnigLib(),
    loadGrammar: async (requested) => {
      if (requested !== scopeName) return null;
      const json = await readFile(grammarPath, 'utf8');
      return textmate.parseRawGrammar(json, grammarPath);
    },
  });
  const grammar = await registry.loadGrammar(scopeName);
  if (!grammar) throw new Error(`vscode-textmate could not load ${scopeName} from ${grammarPath}`);
  return grammar;
}

/** Tokenizes a whole log, carrying the rule stack from line to line as the editor does. */
export function tokenizeLog(grammar: textmate.IGrammar, text: string): LogToken[][] {
  let ruleStack = textmate.INITIAL;
  return text.split(/\r?\n/).map((line) => {
    const result = grammar.tokenizeLine(line, ruleStack);
    ruleStack = result.ruleStack;
    return result.tokens.map((token) => ({ text: line.slice(token.startIndex, token.endIndex), scopes: token.scopes }));
  });
}
