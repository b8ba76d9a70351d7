// Plans on the code, the pure parts: the look of each action (gutter icon, colours) and which marks go in which
// editor. No VS Code.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import type { PlanBlockVerdict, PlanOverlay } from '../../server/src/protocol';
import { marksByKey, marksFor, normalizeUri, sameFile } from '../../client/src/planOverlay/editorVerdicts';
import { actionDescription, actionLook, decorationKey, decorationKeys, gutterIconFile, planActions, staleRulerColor } from '../../client/src/planOverlay/verdictLook';

const block = (over: Partial<PlanBlockVerdict> = {}): PlanBlockVerdict => ({
  uri: 'file:///work/app/main.tf',
  range: { start: { line: 10, character: 0 }, end: { line: 10, character: 30 } },
  address: 'random_pet.app_name',
  action: 'create',
  label: '+ create',
  instances: [],
  ...over,
});
const overlay = (over: Partial<PlanOverlay> = {}): PlanOverlay => ({
  folderUri: 'file:///work/app',
  hostname: 'app.terraform.io',
  workspaceId: 'ws-1',
  runId: 'run-1',
  planId: 'plan-1',
  stale: false,
  blocks: [block()],
  unmatched: [],
  ...over,
});

describe('the look of plan actions', () => {
  test('create, update and delete/replace take the git decoration colours; read and no-op a neutral one', () => {
    assert.equal(actionLook('create').themeColor, 'gitDecoration.addedResourceForeground');
    assert.equal(actionLook('update').themeColor, 'gitDecoration.modifiedResourceForeground');
    assert.equal(actionLook('delete').themeColor, 'gitDecoration.deletedResourceForeground');
    assert.equal(actionLook('replace').themeColor, 'gitDecoration.deletedResourceForeground');
    assert.equal(actionLook('read').themeColor, actionLook('no-op').themeColor);
    assert.deepEqual(planActions.map((a) => actionLook(a).symbol), ['+', '~', '-/+', '-', '<=', '·']);
  });

  test('an action this client does not know looks like a no-op instead of failing', () => {
    assert.deepEqual(actionLook('forget'), actionLook('no-op'));
    assert.equal(decorationKey('forget', true), 'no-op-stale');
  });

  test('a stale overlay has its own, dimmed decoration per action', () => {
    assert.equal(decorationKey('update', false), 'update');
    assert.equal(decorationKey('update', true), 'update-stale');
    assert.equal(decorationKeys.length, planActions.length * 2);
    assert.equal(staleRulerColor('create', 'dark'), '#81b88b66');
  });

  test('every decoration has a gutter icon per theme, drawn in that theme\'s colour, the stale one dimmed', () => {
    for (const key of decorationKeys) {
      for (const theme of ['dark', 'light'] as const) {
        const file = gutterIconFile(key, theme);
        assert.ok(existsSync(file), `${file} is missing (node media/plan-icons.mjs writes it)`);
        const svg = readFileSync(file, 'utf8');
        const action = key.replace(/-stale$/, '');
        assert.ok(svg.includes(actionLook(action)[theme]), `${file} is not drawn in ${actionLook(action)[theme]}`);
        assert.equal(svg.includes('opacity="0.4"'), key.endsWith('-stale'), `${file}: dimmed iff stale`);
      }
    }
  });

  test('the description says the symbol, the action and its reason', () => {
    assert.equal(actionDescription('replace', 'requested'), '-/+ replace (requested)');
    assert.equal(actionDescription('create'), '+ create');
    assert.equal(actionDescription('no-op'), '· no changes');
  });
});

describe('which marks an editor gets', () => {
  test('only the blocks of that file, from every overlay, by line', () => {
    const overlays = [
      overlay({ blocks: [block({ line: 1 } as never), block({ address: 'b', range: { start: { line: 3, character: 0 }, end: { line: 3, character: 1 } }, action: 'update', label: '~ update in place' }), block({ uri: 'file:///work/app/other.tf', address: 'c' })] }),
      overlay({ folderUri: 'file:///work/net', runId: 'run-2', blocks: [block({ uri: 'file:///work/net/main.tf', address: 'net' })] }),
    ];
    const marks = marksFor('file:///work/app/main.tf', overlays);
    assert.deepEqual(marks.map((m) => [m.address, m.line, m.key]), [['b', 3, 'update'], ['random_pet.app_name', 10, 'create']]);
    assert.deepEqual(marksFor('file:///work/net/main.tf', overlays).map((m) => m.runId), ['run-2']);
    assert.deepEqual(marksFor('file:///work/app/variables.tf', overlays), []);
  });

  test('a stale overlay marks its blocks stale', () => {
    const [mark] = marksFor('file:///work/app/main.tf', [overlay({ stale: true })]);
    assert.equal(mark?.key, 'create-stale');
    assert.equal(mark?.stale, true);
  });

  test('URIs written differently by the server and the editor still match', () => {
    assert.ok(sameFile('file:///a%20b/main.tf', 'file:///a b/main.tf'));
    assert.ok(sameFile('file:///C%3A/x/main.tf', 'file:///c:/x/main.tf'));
    assert.ok(!sameFile('file:///a/main.tf', 'file:///a/main.tfvars'));
    assert.equal(normalizeUri('file:///bad%zz/'), 'file:///bad%zz');
  });

  test('grouped per decoration type, every type present so a redraw clears what went away', () => {
    const grouped = marksByKey(marksFor('file:///work/app/main.tf', [overlay()]), decorationKeys);
    assert.equal(grouped.size, decorationKeys.length);
    assert.equal(grouped.get('create')?.length, 1);
    assert.deepEqual(grouped.get('delete'), []);
  });
});
