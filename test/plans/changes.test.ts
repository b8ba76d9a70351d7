// Plan entries → instance changes (actions folded, reasons in words, attributes that change), labels, the hover
// text, and the JSON plan schema on a real-shaped plan and on malformed input. A sensitive value never comes out.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { terraformPlanSchema } from '../../server/src/api';
import { planHoverText } from '../../server/src/features/planHover';
import { planUnmatchedDiagnostic } from '../../server/src/features/planDiagnostic';
import { providePlanInlayHints } from '../../server/src/features/planInlayHints';
import { foldActions, toInstanceChange } from '../../server/src/plans/changes';
import { actionLabel, blockLabel } from '../../server/src/plans/labels';
import { fold } from '../../server/src/plans/planOverlays';
import type { PlanOverlay } from '../../server/src/protocol';

/** Shaped like `terraform show -json` of a plan: a replace by request, an update with a sensitive attribute, a create. */
const realPlan = {
  format_version: '1.2',
  terraform_version: '1.9.5',
  planned_values: { root_module: {} },
  resource_changes: [
    {
      address: 'aws_instance.web',
      mode: 'managed',
      type: 'aws_instance',
      name: 'web',
      provider_name: 'registry.terraform.io/hashicorp/aws',
      change: {
        actions: ['delete', 'create'],
        before: { ami: 'ami-1', id: 'i-1', tags: { a: '1' } },
        after: { ami: 'ami-2', tags: { a: '1' } },
        after_unknown: { id: true },
        before_sensitive: {},
        after_sensitive: {},
        replace_paths: [['ami']],
      },
      action_reason: 'replace_by_request',
    },
    {
      address: 'aws_db_instance.main',
      mode: 'managed',
      type: 'aws_db_instance',
      name: 'main',
      change: {
        actions: ['update'],
        before: { password: 'hunter2-old', engine_version: '15.3', nested: { secret: 's3cr3t-old', open: 1 } },
        after: { password: 'hunter2-new', engine_version: '15.4', nested: { secret: 's3cr3t-new', open: 1 } },
        after_unknown: {},
        before_sensitive: { password: true, nested: { secret: true } },
        after_sensitive: { password: true, nested: { secret: true } },
      },
    },
    {
      address: 'random_pet.name',
      mode: 'managed',
      type: 'random_pet',
      name: 'name',
      change: { actions: ['create'], before: null, after: { length: 2 }, after_unknown: { id: true }, before_sensitive: false, after_sensitive: {} },
    },
  ],
  resource_drift: [],
  output_changes: { name: { actions: ['create'], before: null, after: null, after_unknown: true, before_sensitive: false, after_sensitive: false } },
  configuration: {},
};

describe('plan changes', () => {
  const plan = terraformPlanSchema.parse(realPlan);
  const [replace, update, create] = fold(plan).changes;

  test('the schema accepts a real-shaped plan with fields it does not know', () => {
    assert.equal(plan.resource_changes?.length, 3);
  });

  test('the schema rejects malformed plans with a message, never a throw elsewhere', () => {
    for (const bad of [{ resource_changes: 'nope' }, { resource_changes: [{ address: 'a.b' }] }, { resource_changes: [{ address: 'a.b', change: { actions: [] } }] }]) {
      const parsed = terraformPlanSchema.safeParse(bad);
      assert.equal(parsed.success, false);
      assert.ok(parsed.error.issues[0]!.message.length > 0);
    }
  });

  test('actions fold into one verb', () => {
    assert.equal(foldActions(['create', 'delete']), 'replace');
    assert.equal(foldActions(['delete', 'create']), 'replace');
    assert.equal(foldActions(['read']), 'read');
    assert.equal(foldActions(['no-op']), 'no-op');
    assert.equal(foldActions(['forget']), 'no-op');
  });

  test('a replace carries its reason and the attributes that change, unknown ones marked', () => {
    assert.equal(replace!.action, 'replace');
    assert.equal(replace!.reason, 'requested');
    assert.deepEqual(replace!.attributes, [
      { name: 'ami', before: 'ami-1', after: 'ami-2' },
      { name: 'id', before: 'i-1', unknownAfter: true },
    ]);
    assert.equal(actionLabel(replace!), '-/+ replace (requested)');
  });

  test('sensitive attributes (wholly or in part) are listed without any value', () => {
    assert.deepEqual(update!.attributes, [
      { name: 'engine_version', before: '15.3', after: '15.4' },
      { name: 'nested', sensitive: true },
      { name: 'password', sensitive: true },
    ]);
    assert.equal(actionLabel(update!), '~ update in place (3)');
    assert.doesNotMatch(JSON.stringify(update), /hunter2|s3cr3t/);
  });

  test('labels', () => {
    assert.equal(actionLabel(create!), '+ create');
    assert.equal(actionLabel({ action: 'delete', attributes: [] }), '- destroy');
    assert.equal(blockLabel([], false), 'no changes');
    assert.equal(blockLabel([create!], true), '+ create (1 instance)');
    assert.equal(blockLabel([create!, update!, { address: 'x[2]', action: 'no-op', attributes: [] }], true), '2 of 3 instances change');
  });

  const overlay: PlanOverlay = {
    folderUri: 'file:///infra',
    hostname: 'app.terraform.io',
    workspaceId: 'ws-1',
    runId: 'run-abc',
    planId: 'plan-1',
    runMessage: 'Rotate the password',
    plannedAt: '2030-01-01T10:00:00Z',
    stale: false,
    blocks: [],
    unmatched: [],
  };

  test('the hover shows before → after, known after apply, the reason, the run and when; never a sensitive value', () => {
    const now = Date.parse('2030-01-01T10:05:00Z');
    const replaced = planHoverText(overlay, { uri: 'file:///infra/main.tf', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 9 } }, address: 'aws_instance.web', action: 'replace', label: actionLabel(replace!), instances: [replace!] }, now);
    assert.match(replaced, /`"ami-1"` → `"ami-2"`/);
    assert.match(replaced, /\(known after apply\)/);
    assert.match(replaced, /replace \\\(requested\\\)/);
    assert.match(replaced, /run-abc.*Rotate the password.*planned 5 minutes ago/);
    const secret = planHoverText({ ...overlay, stale: true }, { uri: 'file:///infra/main.tf', range: { start: { line: 5, character: 0 }, end: { line: 5, character: 9 } }, address: 'aws_db_instance.main', action: 'update', label: actionLabel(update!), instances: [update!] }, now);
    assert.match(secret, /`password`: \(sensitive value\)/);
    assert.match(secret, /out of date/);
    assert.doesNotMatch(secret, /hunter2|s3cr3t/);
  });

  test('one diagnostic names the destroyed resources without a block', () => {
    const diagnostic = planUnmatchedDiagnostic(
      { ...overlay, unmatched: [{ address: 'a.x', action: 'delete', attributes: [] }, { address: 'b.y', action: 'delete', attributes: [] }] },
      { start: { line: 3, character: 2 }, end: { line: 9, character: 3 } },
    );
    assert.match(diagnostic!.message as string, /2 resources will be destroyed: a\.x, b\.y/);
    assert.equal(diagnostic!.range.start.line, 3);
    assert.equal(planUnmatchedDiagnostic(overlay, { start: { line: 3, character: 2 }, end: { line: 9, character: 3 } }), undefined);
  });
});

describe('inlay hints after the arguments a plan changes', () => {
  const range = (line: number, from: number, to: number) => ({ start: { line, character: from }, end: { line, character: to } });
  const code = [
    { address: 'aws_instance.web', kind: 'resource' as const, type: 'aws_instance', name: 'web', file: '/infra/main.tf', range: range(0, 0, 30), labelsRange: range(0, 9, 30), attributes: [{ name: 'ami', endLine: 1, endCharacter: 17 }, { name: 'password', endLine: 2, endCharacter: 25 }, { name: 'subnet', endLine: 3, endCharacter: 30 }] },
  ];
  const verdict = (instances: PlanOverlay['blocks'][number]['instances']) => ({
    overlay: {} as PlanOverlay,
    block: { uri: 'file:///infra/main.tf', range: range(0, 0, 8), address: 'aws_instance.web', action: 'update' as const, label: '~ update in place', instances },
  });
  const whole = { start: { line: 0, character: 0 }, end: { line: 100, character: 0 } };

  test('the planned value after a changed argument; none for a sensitive or unknown one', () => {
    const hints = providePlanInlayHints([verdict([{ address: 'aws_instance.web', action: 'update', attributes: [
      { name: 'ami', before: 'ami-1', after: 'ami-2' },
      { name: 'password', before: 'old', after: 'hunter2', sensitive: true },
      { name: 'subnet', before: 'a', unknownAfter: true },
    ] }])], code, whole);
    assert.deepEqual(hints.map((hint) => [hint.position, hint.label]), [[{ line: 1, character: 17 }, '→ "ami-2"']]);
    assert.doesNotMatch(JSON.stringify(hints), /hunter2/);
  });

  test('none when several instances change (their values differ), or outside the asked range', () => {
    const instance = (address: string) => ({ address, action: 'update' as const, attributes: [{ name: 'ami', before: 'a', after: 'b' }] });
    assert.deepEqual(providePlanInlayHints([verdict([instance('aws_instance.web[0]'), instance('aws_instance.web[1]')])], code, whole), []);
    assert.deepEqual(providePlanInlayHints([verdict([instance('aws_instance.web')])], code, range(10, 0, 20)), []);
  });
});
