// Reading a syntax tree a step at a time (server/src/model/steps.ts): a large broken file's facts are read with the
// event loop free between steps, and they are exactly the facts reading it at once gives. Also: a large piece's
// references searched a range at a time, and a whole-file pass after block edits re-using the blocks it left alone.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { extractFileText, extractFileTextInSlices } from '../../server/src/model/fileExtraction';
import type { ModelFileKind } from '../../server/src/model/fileKinds';
import { IncrementalTerraformExtractor } from '../../server/src/model/incrementalTerraformFile';
import { pointsAfterLineStart } from '../../server/src/model/positions';
import { findVariableReferences, variableReferenceSteps } from '../../server/src/model/references';
import { allSteps, stepsInSlices, twoTurns } from '../../server/src/model/steps';
import type { Steps } from '../../server/src/model/steps';
import type { Node } from '../../server/src/model/treeSitter';
import { demoAppFolder, freshTerraformFacts, testParser } from './helpers';
import { turnsDuring } from '../helpers/eventLoopTurns';

const file = '/work/stepped/main.tf';

function blocks(count: number): string {
  return Array.from({ length: count }, (_, index) => `resource "terraform_data" "r_${index}" {\n  input = {\n    name = var.v_${index}\n    label = "\${var.w_${index}.id}-x"\n  }\n}\n`).join('\n');
}

/** `count` blocks with a closing brace too many in the middle one: the half after it is left in one ERROR node. */
function braceTooMany(count: number): string {
  const parts = blocks(count).split('\n}\n');
  parts[count / 2] += '\n}';
  return parts.join('\n}\n');
}

/** Each step counted, run at once. */
function countSteps<T>(steps: Steps<T>): { value: T; steps: number } {
  let count = 0;
  for (;;) {
    const step = steps.next();
    if (step.done) return { value: step.value, steps: count };
    count++;
  }
}

/** The root and every node down to the body's items: the pieces an extraction searches. */
function pieces(root: Node): Node[] {
  const found: Node[] = [root];
  for (const child of root.children) {
    if (!child) continue;
    found.push(child);
    if (child.type === 'body') for (const item of child.children) if (item) found.push(item);
  }
  return found;
}

describe('reading a tree in steps', () => {
  test('a piece searched for references a range at a time gives what one search gives, `var` and its name never cut apart', async () => {
    const parser = await testParser();
    const texts = [
      readFileSync(path.join(demoAppFolder, 'main.tf'), 'utf8'),
      braceTooMany(40),
      // A reference split over lines in parentheses, in a template, a heredoc, a for expression, and the broken
      // leftovers error recovery makes (`var` and its name as siblings under an expression or an operation).
      'a = (var\n.x)\nb = "${var.y}-${var.z.k}"\nc = <<EOT\n${var.h}\nEOT\nd = [for v in var.list : v.id]\n',
      'locals {\n a = var.x +\n}\n } var.y.z = 2\n{ var.p }\nx = var.a var.b.c\n}}\n y = "${var.d}"\n',
      'output "o" {\n  value = var.\n}\n',
    ];
    for (const text of texts) {
      const tree = parser.parse(text);
      try {
        const document = { text, endIndex: tree.rootNode.endIndex };
        for (const piece of pieces(tree.rootNode)) {
          const once = findVariableReferences(piece, file, document);
          for (const rangeLength of [1, 5, 40, 300]) {
            const { value, steps } = countSteps(variableReferenceSteps(piece, file, document, rangeLength));
            assert.deepEqual(value, once, `${piece.type} at ${piece.startIndex}, ranges of ${rangeLength}: ${JSON.stringify(text.slice(0, 40))}`);
            if (piece.endIndex - piece.startIndex > 4 * rangeLength && once.length > 1) assert.ok(steps > 1, `searched in ${steps} step(s)`);
          }
        }
      } finally {
        tree.delete();
      }
    }
  });

  test('a large broken file is read with the event loop turning between steps, into the facts reading it at once gives', async () => {
    const parser = await testParser();
    const text = braceTooMany(2000);
    const tree = parser.parse(text);
    try {
      assert.ok(tree.rootNode.hasError);
      const atOnce = new IncrementalTerraformExtractor(file).extract(tree, text);
      let turns = 0;
      const stepped = await stepsInSlices(new IncrementalTerraformExtractor(file).extractSteps(tree, text), () => {
        turns++;
        return twoTurns();
      });
      assert.deepEqual(stepped, atOnce);
      assert.deepEqual(stepped, freshTerraformFacts(parser, file, text));
      // ~100 ms of reading on this machine, a millisecond at a time.
      assert.ok(turns >= 10, `the event loop had ${turns} turns`);
    } finally {
      tree.delete();
    }
  });

  test('the blocks error recovery leaves among an ERROR node\'s children are found, as a fresh extraction finds them', async () => {
    const parser = await testParser();
    // Found by fuzzing (and then shortened): unbalanced braces leave two variable blocks among the children of an
    // ERROR node under the file's root.
    const text = '  input = {\n{    name = var.v_15\n  }\n}\nvariable "v_15" {\n  input = {\n  input = {\n  }\n}\nvariable "v_22" {\n}"r_26" {';
    const tree = parser.parse(text);
    try {
      assert.equal(tree.rootNode.type, 'config_file');
      const inErrors = tree.rootNode.descendantsOfType('ERROR').flatMap((error) => error?.namedChildren.filter((child) => child?.type === 'block') ?? []);
      assert.ok(inErrors.length >= 1, 'a block among an ERROR node\'s children');
      const contribution = new IncrementalTerraformExtractor(file).extract(tree, text);
      assert.deepEqual(contribution, freshTerraformFacts(parser, file, text));
      assert.deepEqual(contribution.variables.map((variable) => variable.name), ['v_15', 'v_22'], 'v_22 is declared by a block inside the ERROR node');
    } finally {
      tree.delete();
    }
  });

  test('after an edit read from its block, a whole-file pass re-uses the blocks it did not touch: the same objects, not read again', async () => {
    const parser = await testParser();
    const extractor = new IncrementalTerraformExtractor(file);
    const original = blocks(300);
    let tree = parser.parse(original);
    extractor.extract(tree, original);
    // A block edit: `v_10` renamed, read from its block alone.
    const renameAt = original.indexOf('var.v_10\n') + 'var.'.length;
    const renamed = `${original.slice(0, renameAt)}renamed${original.slice(renameAt + 'v_10'.length)}`;
    const edit = extractor.extractBlockEdit(renamed, { prefix: renameAt, suffix: original.length - renameAt - 'v_10'.length }, (start, end, startRow) =>
      parser.parseRegion(renamed, start, end, pointsAfterLineStart(renamed, start, startRow)),
    );
    assert.ok(edit?.exact, 'read from its block');
    const kept = edit.contribution.references.find((reference) => reference.name === 'v_5');
    // Then a closing brace too many in block 200: a whole-file pass.
    const braceAt = renamed.indexOf('resource "terraform_data" "r_200"');
    const broken = `${renamed.slice(0, braceAt)}}\n${renamed.slice(braceAt)}`;
    tree.delete();
    tree = parser.parse(broken);
    try {
      const contribution = extractor.extract(tree, broken);
      assert.deepEqual(contribution, freshTerraformFacts(parser, file, broken));
      assert.ok(extractor.lastExtracted <= 3, `read ${extractor.lastExtracted} pieces again`);
      assert.equal(
        contribution.references.find((reference) => reference.name === 'v_5'),
        kept,
        'the same reference object: the folder index has nothing to swap for it',
      );
    } finally {
      tree.delete();
    }
  });

  test('a closed file read in slices gives the facts extractFileText gives, clean, broken (block by block, or whole) and tfvars', async () => {
    const parser = await testParser();
    const texts: [string, string, ModelFileKind][] = [
      ['clean', blocks(1500), { kind: 'terraform' }],
      ['a brace too many, read region by region', braceTooMany(400), { kind: 'terraform' }],
      ['a brace too many, too many regions to read one by one', braceTooMany(2400), { kind: 'terraform' }],
      ['tfvars', Array.from({ length: 3000 }, (_, index) => `v_${index} = { name = "n-${index}", size = ${index} }`).join('\n'), { kind: 'tfvars', format: 'hcl', autoLoaded: true }],
    ];
    for (const [what, text, kind] of texts) {
      const { value: sliced, turns } = await turnsDuring(() => extractFileTextInSlices(parser, file, kind, text, () => false));
      assert.deepEqual(sliced, extractFileText(parser, file, kind, text), what);
      assert.ok(sliced?.contribution, what);
      assert.ok(turns >= 5, `${what}: the event loop turned ${turns} times`);
    }
    assert.equal(await extractFileTextInSlices(parser, file, { kind: 'terraform' }, blocks(1500), () => true), undefined, 'wanted no more');
  });

  test('allSteps and stepsInSlices give what the steps return', async () => {
    function* counting(): Steps<number> {
      let sum = 0;
      for (let index = 1; index <= 100; index++) {
        sum += index;
        yield;
      }
      return sum;
    }
    assert.equal(allSteps(counting()), 5050);
    let pauses = 0;
    const sliced = await stepsInSlices(
      counting(),
      async () => {
        pauses++;
      },
      0,
    );
    assert.equal(sliced, 5050);
    assert.equal(pauses, 100, 'a zero-length slice pauses after every step');
  });
});
