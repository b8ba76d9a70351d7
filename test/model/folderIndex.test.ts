// The folder index's by-name views when a caller says what an edit swapped (FolderIndex.replace's `swapped`): used
// only when it was made from the contribution the index holds; otherwise the lists are compared as without it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FolderIndex, referenceRange } from '../../server/src/model';
import type { TerraformFileContribution, VariableReference } from '../../server/src/model';

const file = '/work/index/main.tf';

function reference(name: string, line: number): VariableReference {
  return { name, file, line, character: 2, nameLine: line, nameCharacter: 6, endLine: line, endCharacter: 6 + name.length };
}

function contribution(references: VariableReference[]): TerraformFileContribution {
  return { kind: 'terraform', file, variables: [], references, addresses: [], moved: [], cloudBlocks: [], remoteBackends: [], syntaxProblems: [] };
}

const names = (index: FolderIndex, ...wanted: string[]) => Object.fromEntries(wanted.map((name) => [name, index.referencesTo(name).map((item) => referenceRange(item).start.line)]));

describe('the folder index told what an edit swapped', () => {
  const a = reference('a', 1);
  const b = reference('b', 2);
  const c = reference('c', 3);

  test('updates the swapped items alone, to what comparing the lists gives', () => {
    const index = new FolderIndex();
    const first = contribution([a, b, c]);
    index.replace(file, first);
    const renamed = reference('renamed', 2);
    index.replace(file, contribution([a, renamed, c]), { basedOn: first, removed: { variables: [], references: [b] }, added: { variables: [], references: [renamed] } });
    assert.deepEqual(names(index, 'a', 'b', 'c', 'renamed'), { a: [1], b: [], c: [3], renamed: [2] });
  });

  test('a swap made from a contribution the index no longer holds is not trusted: the lists are compared', () => {
    const index = new FolderIndex();
    const stale = contribution([a, b, c]);
    index.replace(file, stale);
    index.replace(file, contribution([a, c])); // b went away in between (a whole-file parse, say)
    const renamed = reference('renamed', 2);
    // Taken as it says, this would keep a and c, which the new lists no longer hold.
    index.replace(file, contribution([renamed]), { basedOn: stale, removed: { variables: [], references: [b] }, added: { variables: [], references: [renamed] } });
    assert.deepEqual(names(index, 'a', 'b', 'c', 'renamed'), { a: [], b: [], c: [], renamed: [2] });
  });
});

describe("the journal of names whose references changed (completion's use ranking reads it)", () => {
  test('names each name an edit touched, whether swapped or compared, and nothing for a file of declarations only', () => {
    const index = new FolderIndex();
    const start = index.referenceCursor;
    const first = contribution([reference('a', 1), reference('b', 2)]);
    index.replace(file, first);
    assert.deepEqual(new Set(index.referenceNamesChangedSince(start)), new Set(['a', 'b']));
    const afterFirst = index.referenceCursor;
    const renamed = reference('c', 2);
    index.replace(file, contribution([first.references[0], renamed]), { basedOn: first, removed: { variables: [], references: [first.references[1]] }, added: { variables: [], references: [renamed] } });
    assert.deepEqual(new Set(index.referenceNamesChangedSince(afterFirst)), new Set(['b', 'c']));
    const afterSwap = index.referenceCursor;
    index.replace('/work/index/variables.tf', { ...contribution([]), file: '/work/index/variables.tf' });
    assert.deepEqual(index.referenceNamesChangedSince(afterSwap), []);
  });

  test('a position older than what the journal still keeps gets undefined (count everything again), never a partial answer', () => {
    const index = new FolderIndex();
    const start = index.referenceCursor;
    for (let round = 0; round < 20_000; round++) index.replace(file, contribution([reference(`n${round}`, 1)]));
    assert.equal(index.referenceNamesChangedSince(start), undefined);
    const recent = index.referenceCursor;
    index.replace(file, contribution([reference('last', 1)]));
    assert.deepEqual(new Set(index.referenceNamesChangedSince(recent)), new Set(['n19999', 'last']));
    assert.equal(index.referenceNamesChangedSince(index.referenceCursor + 1), undefined, 'a position from another index');
  });
});
