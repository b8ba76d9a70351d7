import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { loadTerraformParser, resolveWasmLocation } from '../../server/src/model';
import { testParser } from './helpers';

describe('wasm location', () => {
  test('from sources, both wasm files and web-tree-sitter\'s code resolve into node_modules', () => {
    const location = resolveWasmLocation();
    assert.match(location.runtimeScript, /node_modules[\\/]web-tree-sitter[\\/]web-tree-sitter\.cjs$/);
    assert.match(location.runtimeWasm, /node_modules[\\/]web-tree-sitter[\\/]web-tree-sitter\.wasm$/);
    assert.match(location.terraformWasm, /node_modules[\\/]@tree-sitter-grammars[\\/]tree-sitter-hcl[\\/]tree-sitter-terraform\.wasm$/);
  });

  test('an explicit folder without the files fails with a message that says where it looked and what to do', () => {
    const empty = mkdtempSync(path.join(os.tmpdir(), 'no-wasm-'));
    assert.throws(() => resolveWasmLocation({ wasmDirectory: empty }), (error: Error) => {
      assert.ok(error.message.includes(empty), error.message);
      assert.match(error.message, /node esbuild\.mjs/);
      return true;
    });
  });

  test('an explicit folder is used when it holds both files, and refused when it holds only one', () => {
    const fromModules = resolveWasmLocation();
    const folder = mkdtempSync(path.join(os.tmpdir(), 'wasm-'));
    copyFileSync(fromModules.runtimeWasm, path.join(folder, 'web-tree-sitter.wasm'));
    assert.throws(() => resolveWasmLocation({ wasmDirectory: folder }), /tree-sitter-terraform\.wasm/);
    copyFileSync(fromModules.terraformWasm, path.join(folder, 'tree-sitter-terraform.wasm'));
    assert.throws(() => resolveWasmLocation({ wasmDirectory: folder }), /web-tree-sitter\.cjs/);
    copyFileSync(fromModules.runtimeScript, path.join(folder, 'web-tree-sitter.cjs'));
    assert.deepEqual(resolveWasmLocation({ wasmDirectory: folder }), {
      runtimeWasm: path.join(folder, 'web-tree-sitter.wasm'),
      terraformWasm: path.join(folder, 'tree-sitter-terraform.wasm'),
      runtimeScript: path.join(folder, 'web-tree-sitter.cjs'),
    });
  });
});

describe('parser', () => {
  test('loads once and parses Terraform', async () => {
    const parser = await testParser();
    assert.equal(await loadTerraformParser(), parser, 'the parser is shared by the process');
    const tree = parser.parse('variable "a" {\n  type = string\n}\n');
    assert.equal(tree.rootNode.type, 'config_file');
    assert.equal(tree.rootNode.hasError, false);
    tree.delete();
  });

  test('positions are UTF-16 code units, as LSP counts them, even after emoji and accents', async () => {
    const parser = await testParser();
    const text = 'x = "é😀日本" + var.after\n';
    const tree = parser.parse(text);
    const reference = tree.rootNode.descendantsOfType('variable_expr')[0];
    assert.equal(reference.startPosition.column, text.indexOf('var.after'));
    assert.equal(reference.startIndex, text.indexOf('var.after'));
    tree.delete();
  });
});
