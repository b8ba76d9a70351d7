// Run documents' pure parts: log text cleaning, structured logs, polling back-off, the details markdown.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cleanLogText, nextPollMs, renderLogLines } from '../../client/src/runs/documents/logText';
import { runDetailsMarkdown } from '../../client/src/runs/documents/runDetailsText';

describe('run logs', () => {
  test('control bytes and ANSI colours are removed, newlines and tabs kept', () => {
    const raw = '\u0002\u001b[1m\u001b[32mPlan:\u001b[0m 1 to add\r\n\tnext\u0007 line\u001b]0;title\u0007\u0003';
    assert.equal(cleanLogText(raw), 'Plan: 1 to add\n\tnext line');
  });

  test('structured run output renders as its messages; plain text stays as it is', () => {
    const json = '{"@level":"info","@message":"Terraform 1.11.4","type":"version"}\n{"@level":"info","@message":"Plan: 1 to add, 0 to change, 0 to destroy.","type":"change_summary"}\n';
    assert.equal(renderLogLines(json), 'Terraform 1.11.4\nPlan: 1 to add, 0 to change, 0 to destroy.\n');
    assert.equal(renderLogLines('Terraform v1.11\n{"a": 1}\n'), 'Terraform v1.11\n{"a": 1}\n');
  });

  test('the worker\'s plain lines before Terraform\'s JSON ones stay; each JSON line shows its message, a diagnostic its detail too', () => {
    const raw = [
      'Terraform v1.11.4',
      'on linux_amd64',
      '{"@level":"info","@message":"aws_instance.web: Plan to create","type":"planned_change"}',
      '{"@level":"error","@message":"Error: Invalid value for input variable","diagnostic":{"severity":"error","summary":"Invalid value for input variable","detail":"Check the workspace variables."},"type":"diagnostic"}',
      '{not json',
    ].join('\n');
    assert.equal(
      renderLogLines(raw),
      'Terraform v1.11.4\non linux_amd64\naws_instance.web: Plan to create\nError: Invalid value for input variable\n\nCheck the workspace variables.\n\n{not json',
    );
  });

  test('following backs off while nothing new arrives, and starts over when text comes', () => {
    assert.equal(nextPollMs(undefined, false), 1_000);
    assert.equal(nextPollMs(1_000, false), 1_500);
    assert.equal(nextPollMs(4_000, false), 5_000);
    assert.equal(nextPollMs(5_000, false), 5_000);
    assert.equal(nextPollMs(5_000, true), 1_000);
  });

  test('details: status, options, timeline and phases, with the message quoted', () => {
    const text = runDetailsMarkdown({
      run: {
        id: 'run-9', status: 'policy_checked', statusLabel: 'Policy checked', message: 'Scale *up*\n[link](http://x)', source: 'svc-ui', createdBy: 'olivia',
        targetAddrs: ['aws_instance.web'], planOnly: false, terraformVersion: '1.11.4', statusTimestamps: { 'planned-at': '2026-11-24T10:01:00Z', 'plan-queued-at': '2026-11-24T10:00:00Z' },
        actions: { isCancelable: false, isConfirmable: true, isDiscardable: true, isForceCancelable: false },
      },
      plan: { id: 'plan-1', status: 'finished', resourceAdditions: 1, resourceChanges: 2, resourceDestructions: 0 },
      costEstimate: { id: 'ce-1', status: 'finished', proposedMonthlyCost: '12.30', deltaMonthlyCost: '1.10' },
      policyChecks: [{ id: 'polchk-1', status: 'passed', result: { passed: 2 } }],
    }, { organization: 'acme', name: 'web' });
    assert.match(text, /^# Scale \\\*up\\\*/);
    assert.match(text, /\*\*Status:\*\* Policy checked/);
    assert.match(text, /\*\*Workspace:\*\* acme\/web/);
    assert.match(text, /Targets: `aws_instance.web`/);
    assert.match(text, /Terraform version: 1\\\.11\\\.4/, 'escaped for the preview, which shows 1.11.4');
    assert.ok(text.indexOf('plan queued') < text.indexOf('| 2026\\-11\\-24T10:01:00Z | planned |'));
    assert.match(text, /Plan: finished \(1 to add, 2 to change, 0 to destroy\)/);
    assert.match(text, /\$12\\\.30 per month/);
    assert.match(text, /Policy check: passed: 2 passed/);
    assert.ok(!text.includes('[link](http://x)'));
  });

  test('details list every option the run was queued with: auto-apply, run variables (keys only), no refresh, empty apply…', () => {
    const text = runDetailsMarkdown({
      run: {
        id: 'run-7', status: 'applied', statusLabel: 'Applied', autoApply: true, allowEmptyApply: true, allowConfigGeneration: true, debuggingMode: true, refresh: false,
        replaceAddrs: ['aws_instance.db'], variableKeys: ['region', 'size'],
        actions: { isCancelable: false, isConfirmable: false, isDiscardable: false, isForceCancelable: false },
      },
    });
    for (const option of ['Auto-apply', 'Empty apply allowed', 'Configuration generation allowed', 'Debugging mode', 'No refresh', 'Replace: `aws_instance.db`', 'Run variables: `region`, `size`']) {
      assert.ok(text.includes(`- ${option}`), `${option} is listed:\n${text}`);
    }
  });

  test('details escape the service\'s text for the preview: HTML, entities and list markers read as written', () => {
    const text = runDetailsMarkdown({
      run: { id: 'run-8', status: 'planned', statusLabel: 'Needs confirmation', message: '<b>bold</b> &amp; more\n1. not a list\n- nor this', actions: { isCancelable: false, isConfirmable: true, isDiscardable: true, isForceCancelable: false } },
    });
    assert.match(text, /^# \\<b\\>bold\\<\/b\\> \\&amp; more$/m, 'no tag, and the entity stays as typed');
    assert.match(text, /^> 1\\\. not a list$/m);
    assert.match(text, /^> \\- nor this$/m);
  });

  test('a policy check not run yet shows no counts; a finished one does', () => {
    const text = runDetailsMarkdown({
      run: { id: 'run-6', status: 'policy_checking', statusLabel: 'Policy checking', actions: { isCancelable: true, isConfirmable: false, isDiscardable: false, isForceCancelable: false } },
      policyChecks: [
        { id: 'polchk-1', status: 'pending', result: { passed: 1, softFailed: 0, hardFailed: 0, advisoryFailed: 0 } },
        { id: 'polchk-2', status: 'soft_failed', result: { passed: 1, softFailed: 1 } },
      ],
    });
    assert.match(text, /^- Policy check: pending$/m);
    assert.match(text, /^- Policy check: soft failed: 1 passed, 1 soft-failed, 0 hard-failed, 0 advisory$/m);
  });
});
