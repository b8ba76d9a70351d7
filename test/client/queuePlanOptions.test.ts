// Queue Plan's choices → the create-run arguments: every option of spec §4.2 and their rules.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { optionsFor, parseRunVariable, planKinds, planKindsFor, queuePlanArguments, summarize } from '../../client/src/runs/actions/queuePlanOptions';

describe('queue plan options', () => {
  test('Destroy is offered only where the token may queue one (allow-destroy-plan on, apply access); unknown permissions offer it', () => {
    const kinds = (permissions: Parameters<typeof planKindsFor>[0]) => planKindsFor(permissions).map((kind) => kind.kind);
    assert.ok(!kinds({ canQueueRun: true, canQueueDestroy: false }).includes('destroy'));
    assert.equal(kinds({ canQueueRun: true, canQueueDestroy: false }).length, planKinds.length - 1);
    assert.ok(kinds({ canQueueDestroy: true }).includes('destroy'));
    assert.deepEqual(kinds(undefined), planKinds.map((kind) => kind.kind));
  });

  test('Plan and auto-apply is offered only with apply access: without it the run would wait for confirmation anyway', () => {
    const kinds = planKindsFor({ canQueueRun: true, canQueueApply: false, canQueueDestroy: false }).map((kind) => kind.kind);
    assert.deepEqual(kinds, ['plan-and-apply', 'plan-only', 'save-plan', 'refresh-only', 'empty-apply']);
    assert.ok(planKindsFor({ canQueueApply: true }).some((kind) => kind.kind === 'auto-apply'));
  });

  const base = { workspaceId: 'ws-1', hostname: 'app.terraform.io' };

  test('each kind sets its create-run attribute', () => {
    const expected: Record<string, object> = {
      'plan-and-apply': {},
      'auto-apply': { autoApply: true },
      'plan-only': { planOnly: true },
      'save-plan': { savePlan: true },
      'refresh-only': { refreshOnly: true },
      destroy: { isDestroy: true },
      'empty-apply': { allowEmptyApply: true },
    };
    for (const { kind } of planKinds) assert.deepEqual(queuePlanArguments({ ...base, kind }), { ...base, ...expected[kind] }, kind);
  });

  test('targets, replacements, variables, message and engine version', () => {
    const args = queuePlanArguments({ ...base, kind: 'plan-only', message: '  Try it  ', targetAddrs: ['a.b'], replaceAddrs: ['c.d'], variables: [{ key: 'region', value: '"eu"' }], engineVersion: '1.11.4' });
    assert.deepEqual(args, { ...base, message: 'Try it', planOnly: true, targetAddrs: ['a.b'], replaceAddrs: ['c.d'], variables: [{ key: 'region', value: '"eu"' }], engineVersion: '1.11.4' });
  });

  test('the engine version goes only with plan only; nothing is replaced in a refresh-only or destroy run', () => {
    assert.equal(queuePlanArguments({ ...base, kind: 'plan-and-apply', engineVersion: '1.11.4' }).engineVersion, undefined);
    assert.equal(queuePlanArguments({ ...base, kind: 'refresh-only', replaceAddrs: ['c.d'] }).replaceAddrs, undefined);
    assert.equal(queuePlanArguments({ ...base, kind: 'destroy', replaceAddrs: ['c.d'], targetAddrs: ['a.b'] }).replaceAddrs, undefined);
    assert.deepEqual(queuePlanArguments({ ...base, kind: 'destroy', targetAddrs: ['a.b'] }).targetAddrs, ['a.b']);
    const refresh = queuePlanArguments({ ...base, kind: 'refresh-only' });
    assert.ok(!(refresh.refreshOnly && refresh.isDestroy), 'refresh-only and destroy are exclusive');
  });

  test('run variables are parsed as key = HCL value, with clear errors', () => {
    assert.deepEqual(parseRunVariable(' region = "eu-west-1" '), { key: 'region', value: '"eu-west-1"' });
    assert.deepEqual(parseRunVariable('tags = { a = "b" }'), { key: 'tags', value: '{ a = "b" }' });
    assert.match((parseRunVariable('region') as { error: string }).error, /key = value/);
    assert.match((parseRunVariable('9lives = 1') as { error: string }).error, /not a variable name/);
    assert.match((parseRunVariable('x =') as { error: string }).error, /value/);
  });

  test('the summary names what will be queued and never a variable value', () => {
    const lines = summarize({ ...base, kind: 'destroy', message: 'Tear down', targetAddrs: ['a.b'], variables: [{ key: 'password', value: '"hunter2"' }] }, 'acme/web');
    assert.equal(lines[0], 'Destroy in acme/web');
    assert.ok(lines.includes('Targets: a.b'));
    assert.ok(lines.includes('Run variables: password'));
    assert.ok(!lines.join('\n').includes('hunter2'));
  });

  test('run options: debugging mode, no refresh and configuration generation, each where the kind can take it', () => {
    const all = ['debugging-mode', 'no-refresh', 'allow-config-generation'] as const;
    assert.deepEqual(queuePlanArguments({ ...base, kind: 'plan-and-apply', options: [...all] }), { ...base, debuggingMode: true, refresh: false, allowConfigGeneration: true });
    // A refresh-only run is nothing but a refresh; only runs that plan changes import (and generate configuration).
    assert.deepEqual(optionsFor('refresh-only'), ['debugging-mode']);
    assert.deepEqual(optionsFor('destroy'), ['debugging-mode', 'no-refresh']);
    assert.deepEqual(queuePlanArguments({ ...base, kind: 'refresh-only', options: [...all] }), { ...base, refreshOnly: true, debuggingMode: true });
    assert.deepEqual(queuePlanArguments({ ...base, kind: 'plan-only' }), { ...base, planOnly: true }, 'nothing is sent for an option not picked: the service keeps its defaults');
    const lines = summarize({ ...base, kind: 'save-plan', options: ['no-refresh', 'debugging-mode'] }, 'acme/web');
    assert.ok(lines.includes('Options: debugging mode, no refresh'), lines.join('\n'));
  });
});
