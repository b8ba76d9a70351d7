// The sentence each command's success is told with, in editors that ignore a command's result.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { outcomeSentence } from '../../server/src/commands/outcomeNotices';
import { serverCommandVerbs } from '../../server/src/protocol';

test('every command that changes something has a sentence; none quotes a secret', () => {
  const result = { id: 'run-1', statusLabel: 'Pending', key: 'region', token: 'the-secret-token', deleted: true, folderUris: [] };
  for (const verb of serverCommandVerbs) {
    const sentence = outcomeSentence(verb, result as never);
    if (verb === 'showPlanOnCode' || verb === 'showInfo') assert.equal(sentence, undefined, verb);
    else assert.match(sentence ?? '', /^HCP Terraform: /, verb);
    assert.doesNotMatch(sentence ?? '', /the-secret-token/, verb);
  }
  assert.equal(outcomeSentence('queuePlan', { ...result, isDestroy: true } as never), 'HCP Terraform: destroy plan queued, run run-1 (Pending).');
});
