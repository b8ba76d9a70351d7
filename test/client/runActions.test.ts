// What a run action tells once the service accepted it: a cancel (the run stops later) in a notification that
// stays, the others in the status bar; a refusal in an error. Run with the fake vscode and a fake server.
import './fakes/installFakeVscode';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { ClientDeps } from '../../client/src/clientDeps';
import { runActions, runRunAction } from '../../client/src/runs/actions/runActions';
import { prompts } from '../../client/src/userPrompts';
import type { RunSummary } from '../../server/src/protocol';
import { statusBarMessages } from './fakes/vscode';

const workspace = { id: 'ws-1', name: 'web', organization: 'acme', hostname: 'app.terraform.io' };
const planning: RunSummary = {
  id: 'run-1',
  status: 'planning',
  statusLabel: 'Planning',
  message: 'Scale up',
  actions: { isCancelable: true, isConfirmable: false, isDiscardable: false, isForceCancelable: false },
};

describe('run actions once accepted', () => {
  const said: Array<{ level: string; text: string }> = [];
  const sent: Array<{ verb: string; args: unknown }> = [];
  const original = { ...prompts };
  let answer: RunSummary;
  const deps = {
    server: {
      command: async (verb: string, args: unknown) => {
        sent.push({ verb, args });
        return answer;
      },
    },
    activity: { changed: () => undefined },
  } as unknown as ClientDeps;
  beforeEach(() => {
    said.length = 0;
    sent.length = 0;
    statusBarMessages.length = 0;
    prompts.information = async (text: string) => void said.push({ level: 'information', text });
    prompts.error = async (text: string) => void said.push({ level: 'error', text });
    prompts.inputBox = async () => '';
    prompts.modal = async (_message: string, _detail: string, button: string) => button;
  });
  afterEach(() => Object.assign(prompts, original));

  test('a cancel is told in a notification: the run stops at its next safe point', async () => {
    answer = { ...planning, statusLabel: 'Planning' };
    const result = await runRunAction(deps, undefined, runActions.cancelRun, { kind: 'run', run: planning, workspace });
    assert.equal(result, answer);
    assert.deepEqual(sent, [{ verb: 'cancelRun', args: { hostname: 'app.terraform.io', runId: 'run-1' } }]);
    assert.equal(said.length, 1);
    assert.equal(said[0].level, 'information');
    assert.match(said[0].text, /asked run "Scale up" \(run-1\) in acme\/web to cancel; it stops at its next safe point \(now planning\)/);
    assert.deepEqual(statusBarMessages, []);
  });

  test('a discard is where it goes once accepted: the status bar says so, no notification', async () => {
    const planned = { ...planning, status: 'planned', statusLabel: 'Needs confirmation', actions: { ...planning.actions, isDiscardable: true } };
    answer = { ...planned, status: 'discarded', statusLabel: 'Discarded' };
    await runRunAction(deps, undefined, runActions.discardRun, { kind: 'run', run: planned, workspace });
    assert.deepEqual(said, []);
    assert.deepEqual(statusBarMessages, ['HCP Terraform: run run-1 discarded; now discarded']);
  });
});
