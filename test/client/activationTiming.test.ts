import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { activationClock, describeActivation } from '../../client/src/activationTiming';
import { parseOwnLine } from '../bench/activation';

// One clock per process (it starts when its module is evaluated), as in the extension host: the steps run in order.
describe('activation timing', () => {
  test('is unknown until activate() has returned, then adds module evaluation and activate(), without the server', () => {
    assert.equal(activationClock.timing(), undefined);
    activationClock.moduleEvaluated();
    activationClock.activateEntered();
    assert.equal(activationClock.timing(), undefined, 'activate() has not returned yet');
    for (let spin = performance.now(); performance.now() - spin < 2; ); // activate()'s synchronous work
    activationClock.activateReturned();
    const timing = activationClock.timing();
    assert.ok(timing);
    assert.ok(timing.activateMs >= 2, JSON.stringify(timing));
    assert.ok(timing.moduleEvaluationMs >= 0);
    assert.equal(timing.activationMs, Math.round((timing.moduleEvaluationMs + timing.activateMs) * 10) / 10);
    assert.equal(timing.serverStartMs, undefined, 'the server has not started');

    activationClock.serverStarted();
    const started = activationClock.timing()?.serverStartMs;
    assert.ok(started !== undefined && started >= timing.activateMs);
    activationClock.serverStarted(); // a restart later is not re-timed
    assert.equal(activationClock.timing()?.serverStartMs, started);
  });

  test('the logged line is the one the bench reads back', () => {
    const timing = { moduleEvaluationMs: 19.3, activateMs: 8.6, activationMs: 27.9 };
    const line = describeActivation(timing);
    assert.match(line, /^activated in 27.9 ms/);
    assert.deepEqual(parseOwnLine(`2026-11-25 07:00:00.000 [info] ${line}`), timing);
  });
});
