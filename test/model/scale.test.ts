// Correctness on a generated 1,000-file module with 5,000 variables. Timings are printed for information only:
// a loaded CI machine must not fail a test for being slow.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { performance } from 'node:perf_hooks';
import { ModuleFolderModel } from '../../server/src/model';
import { MemoryFileSystem, testParser } from './helpers';

const fileCount = 1000;
const variablesPerFile = 5;

function generatedFile(index: number): string {
  const blocks: string[] = [];
  for (let v = 0; v < variablesPerFile; v++) {
    const name = `v_${index}_${v}`;
    blocks.push(`variable "${name}" {\n  description = "Setting ${v} of component ${index}"\n  type        = ${v % 2 ? 'number' : 'map(object({ port = number, public = optional(bool, false) }))'}\n  default     = ${v % 2 ? v : '{}'}\n}\n`);
  }
  // Each file uses its own variables and one of the next file's, like modules wired together.
  const next = (index + 1) % fileCount;
  blocks.push(
    `resource "terraform_data" "component_${index}" {\n  input = {\n${Array.from({ length: variablesPerFile }, (_, v) => `    s${v} = var.v_${index}_${v}`).join('\n')}\n    neighbour = var.v_${next}_0\n  }\n}\n`,
  );
  return blocks.join('\n');
}

test('a 1,000-file module with 5,000 variables indexes correctly, and an edit re-extracts one file', async () => {
  const folder = path.resolve('/work/generated-module');
  const files: Record<string, string> = {};
  for (let index = 0; index < fileCount; index++) files[path.join(folder, `component_${String(index).padStart(4, '0')}.tf`)] = generatedFile(index);
  files[path.join(folder, 'terraform.tfvars')] = Array.from({ length: 200 }, (_, index) => `v_${index}_1 = ${index}`).join('\n');
  const fileSystem = new MemoryFileSystem(files);
  const parser = await testParser();

  const started = performance.now();
  const model = await ModuleFolderModel.load({ folder, parser, fileSystem });
  const indexMs = performance.now() - started;

  assert.equal(model.index.files().length, fileCount + 1);
  assert.equal(model.index.variableNames().length, fileCount * variablesPerFile);
  assert.equal(model.index.addresses().length, fileCount);
  assert.equal(model.index.referencesTo('v_1_0').length, 2, 'its own file and the previous file refer to it');
  assert.equal(model.index.undeclaredReferences().length, 0);
  assert.equal(model.index.autoLoadedTfvarsEntries().length, 200);
  assert.deepEqual(model.index.declarationsOf('v_999_3')[0].default?.literal, { value: 3 });

  const edited = path.join(folder, 'component_0500.tf');
  model.openDocument(edited, generatedFile(500));
  const untouched = model.index.get(path.join(folder, 'component_0501.tf'));
  const line = variablesPerFile * 6 + 2; // `s0 = var.v_500_0`: after the variable blocks (6 lines each) and two resource lines
  const editStarted = performance.now();
  model.changeDocument(edited, [{ range: { start: { line, character: 13 }, end: { line, character: 20 } }, text: 'renamed' }]);
  const editMs = performance.now() - editStarted;

  assert.deepEqual(model.index.referencesTo('renamed').map((reference) => reference.file), [edited]);
  assert.equal(model.index.referencesTo('v_500_0').length, 1, 'only the neighbour still refers to it');
  assert.deepEqual(model.index.undeclaredReferences().map((reference) => reference.name), ['renamed']);
  assert.equal(model.index.get(path.join(folder, 'component_0501.tf')), untouched);
  console.log(`[scale] indexed ${fileCount} files / ${fileCount * variablesPerFile} variables in ${indexMs.toFixed(0)} ms; one edit in ${editMs.toFixed(1)} ms`);
  model.dispose();
});
