// When the open-document sync (server/src/documents/sync.ts) hands the editor's changes to the code model, on a
// clock the test moves by hand: the model's update waits for the requests sent with a keystroke, a burst of changes
// is applied once, a whole-file parse waits (but not for ever, and not for a request that needs it), and the parse
// that confirms a broken block waits for the typing to pause. The model here only records what it is asked; the real
// model's side is test/server/syncWithRealModel.test.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ModuleFolders } from '../../server/src/documents/moduleFolders';
import { registerDocumentSync } from '../../server/src/documents/sync';
import { heavyParseMs, maxQuietWaitMs, maxWholeParseWaitMs, modelUpdateDelayMs, quietMs, verifyDelayMs, wholeParseDelay } from '../../server/src/documents/syncTiming';
import type { TextChange } from '../../server/src/model';
import { LoopClock } from '../helpers/loopClock';
import { syncConnection } from '../helpers/syncConnection';

type ChangeResult = boolean | 'deferred' | 'unverified' | 'isolated';

const uri = 'file:///work/module/main.tf';
const text = Array.from({ length: 40 }, (_, index) => `variable "v${index}" {}`).join('\n') + '\n';

/** A code model that records when it was asked what, answering changeDocument with `result`. */
class RecordingModel {
  result: ChangeResult = true;
  /** How long a whole-file parse takes (the clock moves by it while parsePending runs). */
  parseCostMs = 0;
  readonly changes: Array<{ at: number; changes: TextChange[]; resultText: string | undefined; offsets: number }> = [];
  readonly parses: number[] = [];
  closed = 0;
  private unparsed = false;

  constructor(private readonly clock: LoopClock) {}

  openDocument(): boolean {
    return true;
  }

  changeDocument(_uri: string, changes: readonly TextChange[], resultText?: string, options: { offsets?: readonly unknown[] } = {}): ChangeResult {
    this.changes.push({ at: this.clock.now(), changes: [...changes], resultText, offsets: options.offsets?.length ?? 0 });
    if (this.result === 'deferred' || this.result === 'unverified') this.unparsed = true;
    return this.result;
  }

  parsePending(): boolean {
    this.parses.push(this.clock.now());
    this.clock.spend(this.parseCostMs);
    const had = this.unparsed;
    this.unparsed = false;
    return had;
  }

  /**
   * Like parsePending (the clock moves by parseCostMs at once); with `slicedParseMs`, a parse in slices that takes
   * that long on the clock (changes can come meanwhile) and then stops if its control says so.
   */
  slicedParseMs = 0;
  async parsePendingInSlices(_uri: string, control: { cancelled(): boolean }): Promise<boolean | 'stopped'> {
    if (this.slicedParseMs === 0) return this.parsePending();
    this.parses.push(this.clock.now());
    await new Promise<void>((resolve) => this.clock.setTimer(this.slicedParseMs, resolve));
    if (control.cancelled()) return 'stopped';
    const had = this.unparsed;
    this.unparsed = false;
    return had;
  }

  async closeDocument(): Promise<boolean> {
    this.closed++;
    return true;
  }

  openText(): string | undefined {
    return undefined;
  }
}

/** The sync registered on a fake connection, over one module folder holding a RecordingModel, with one document open. */
function openDocument() {
  const clock = new LoopClock();
  const model = new RecordingModel(clock);
  const { connection, handlers } = syncConnection();
  // Like ModuleFolders: the work runs on the folder's queue, in order, a microtask later, not inside the call. A test
  // can hold the queue (the folder busy, e.g. reading from disk) so that several pieces of work wait in it.
  let tail: Promise<unknown> = Promise.resolve();
  let gate: Promise<void> = Promise.resolve();
  let open = () => undefined as void;
  const folders = {
    withModel: (_uri: string, work: (m: RecordingModel) => unknown) => {
      const run = tail.then(() => gate).then(() => work(model));
      tail = run.catch(() => undefined);
      return run;
    },
    modelFor: () => model,
  } as unknown as ModuleFolders;
  const view = registerDocumentSync(connection, folders, { clock });
  let version = 1;
  handlers.open!({ textDocument: { uri, languageId: 'terraform', version, text } });
  return {
    clock,
    model,
    view,
    /** Types one character at the start of `line` (a new version). */
    type(line: number) {
      version++;
      handlers.change!({ textDocument: { uri, version }, contentChanges: [{ range: { start: { line, character: 0 }, end: { line, character: 0 } }, text: 'x' }] });
      return version;
    },
    close() {
      handlers.close!({ textDocument: { uri } });
    },
    /** The folder's queue waits (what is handed to it meanwhile queues up) until `releaseQueue`. */
    holdQueue() {
      gate = new Promise<void>((resolve) => (open = resolve));
    },
    releaseQueue() {
      open();
      gate = Promise.resolve();
    },
  };
}

describe('the model follows the editor a moment later', () => {
  test('a change reaches the model modelUpdateDelayMs after it, not before', async () => {
    const { clock, model, view, type } = openDocument();
    type(3);
    await clock.advance(modelUpdateDelayMs - 0.5);
    assert.equal(model.changes.length, 0);
    assert.equal(view.modelVersion(uri), 1);
    await clock.advance(0.5);
    assert.deepEqual(
      model.changes.map((change) => change.at),
      [modelUpdateDelayMs],
    );
    assert.equal(view.modelVersion(uri), 2);
  });

  test('changes within the delay reach the model as one batch, up to the latest version and its text', async () => {
    const { clock, model, view, type } = openDocument();
    type(3);
    await clock.advance(0.5);
    type(1);
    await clock.advance(0.5);
    const latest = type(5);
    assert.equal(view.get(uri)?.version, latest); // requests read the latest text at once
    await clock.endTurn();
    await clock.advance(modelUpdateDelayMs + quietMs * 2);
    assert.equal(model.changes.length, 1);
    const [batch] = model.changes;
    assert.equal(batch.changes.length, 3);
    assert.equal(batch.offsets, 3);
    assert.equal(batch.resultText, view.get(uri)?.getText());
    assert.equal(view.modelVersion(uri), latest);
  });

  for (const [reader, read] of [
    ['get', (view: ReturnType<typeof openDocument>['view']) => void view.get(uri)],
    // A line above the change: the model answers it as it is, so the request does not force the update.
    ['whenCurrent above the change', (view: ReturnType<typeof openDocument>['view']) => void view.whenCurrent(uri, 0)],
  ] as const) {
    test(`the model's update waits while a request (${reader}) reads the document, and quietMs after it`, async () => {
      const { clock, model, type, view } = openDocument();
      type(20);
      await clock.advance(1);
      read(view);
      // The request's handler has not given the event loop back (the hover and code actions behind it have not run).
      await clock.advance(4);
      assert.equal(model.changes.length, 0, 'applied while a request was running');
      await clock.endTurn();
      const requestEnded = clock.now();
      await clock.advance(quietMs - 0.5);
      assert.equal(model.changes.length, 0, 'applied within quietMs of a request');
      await clock.advance(quietMs + 0.5);
      assert.equal(model.changes.length, 1);
      assert.ok(model.changes[0].at >= requestEnded + quietMs);
    });
  }

  test('a stream of requests delays the update maxQuietWaitMs at most', async () => {
    const { clock, model, type, view } = openDocument();
    type(3);
    for (let at = 0; at < maxQuietWaitMs * 3; at++) {
      view.get(uri);
      await clock.endTurn();
      await clock.advance(1);
    }
    assert.equal(model.changes.length, 1, 'never applied while requests kept coming');
    assert.ok(model.changes[0].at >= maxQuietWaitMs && model.changes[0].at <= maxQuietWaitMs + quietMs, `applied at ${model.changes[0].at} ms`);
  });
});

describe('an edit that needs the whole file parsed (deferred)', () => {
  test('the parse waits wholeParseDelay of what the last one took', async () => {
    const { clock, model, type, view } = openDocument();
    model.result = 'deferred';
    model.parseCostMs = 20;
    type(3);
    await clock.advance(modelUpdateDelayMs);
    assert.equal(model.changes.length, 1);
    assert.equal(view.modelVersion(uri), 1, 'a deferred change is not applied yet');
    const firstWait = wholeParseDelay(undefined);
    await clock.advance(firstWait - 0.5);
    assert.deepEqual(model.parses, []);
    await clock.advance(0.5);
    assert.deepEqual(model.parses, [modelUpdateDelayMs + firstWait]);
    assert.equal(view.modelVersion(uri), 2);

    // That parse took 20 ms: the next one waits twice as long.
    const start = clock.now();
    type(4);
    await clock.advance(modelUpdateDelayMs + wholeParseDelay(20) - 0.5);
    assert.equal(model.parses.length, 1);
    await clock.advance(0.5);
    assert.deepEqual(model.parses.slice(1), [start + modelUpdateDelayMs + wholeParseDelay(20)]);
    assert.notEqual(wholeParseDelay(20), wholeParseDelay(undefined)); // (the check above tells them apart)
  });

  test('a burst of such edits is parsed once, the delay after its last edit', async () => {
    const { clock, model, type, view } = openDocument();
    model.result = 'deferred';
    let last = 0;
    for (let at = 0; at < 3; at++) {
      last = type(3);
      await clock.advance(4); // each edit a batch of its own, within the delay of the one before
    }
    await clock.advance(200);
    assert.equal(model.changes.length, 3);
    assert.deepEqual(model.parses, [8 + modelUpdateDelayMs + wholeParseDelay(undefined)]);
    assert.equal(view.modelVersion(uri), last);
  });

  test(`however long the burst lasts, the file is parsed within maxWholeParseWaitMs (${maxWholeParseWaitMs} ms) of its first deferred edit`, async () => {
    const { clock, model, type } = openDocument();
    model.result = 'deferred';
    const gap = wholeParseDelay(undefined) / 2; // every edit comes before the last one's parse is due
    for (let at = 0; at <= 2 * maxWholeParseWaitMs - 100; at += gap) {
      type(3);
      await clock.advance(gap);
    }
    const firstDeferred = modelUpdateDelayMs;
    assert.equal(model.parses[0], firstDeferred + maxWholeParseWaitMs);
    assert.ok(model.parses.length <= 2, `parsed ${model.parses.length} times in one burst`);
  });

  test(`after a parse that took over heavyParseMs (${heavyParseMs} ms), the next waits for verifyDelayMs without a change, however long the typing goes on`, async () => {
    const { clock, model, type, view } = openDocument();
    model.result = 'deferred';
    model.parseCostMs = heavyParseMs + 50;
    type(3);
    await clock.advance(modelUpdateDelayMs + wholeParseDelay(undefined));
    assert.equal(model.parses.length, 1, 'the first at the usual delay: its cost was not known');
    let last = 0;
    let version = 0;
    for (let at = 0; at < 3 * maxWholeParseWaitMs; at += 100) {
      last = clock.now();
      version = type(3);
      await clock.advance(100);
    }
    assert.equal(model.parses.length, 1, 'not parsed while the typing went on');
    await clock.advanceTo(last + modelUpdateDelayMs + verifyDelayMs - 0.5);
    assert.equal(model.parses.length, 1);
    await clock.advance(0.5);
    assert.deepEqual(model.parses.slice(1), [last + modelUpdateDelayMs + verifyDelayMs]);
    assert.equal(view.modelVersion(uri), version);
  });

  test('a parse that a change stopped (slower than the typing) makes the next one wait for the typing to pause', async () => {
    const { clock, model, type, view } = openDocument();
    model.result = 'deferred';
    model.slicedParseMs = 60;
    type(3);
    const firstParse = modelUpdateDelayMs + wholeParseDelay(undefined);
    await clock.advanceTo(50);
    assert.deepEqual(model.parses, [firstParse], 'under way');
    const version = type(3);
    await clock.advanceTo(firstParse + 60); // it stops; the change's batch, queued behind it, is applied
    assert.equal(model.changes.length, 2);
    await clock.advanceTo(firstParse + 60 + verifyDelayMs - 0.5);
    assert.equal(model.parses.length, 1);
    await clock.advance(0.5);
    assert.deepEqual(model.parses, [firstParse, firstParse + 60 + verifyDelayMs]);
    await clock.advance(60);
    assert.equal(view.modelVersion(uri), version);
  });

  test('a request at or below the first changed line parses at once; one above it does not wait', async () => {
    const { clock, model, type, view } = openDocument();
    model.result = 'deferred';
    const version = type(10);
    await clock.advance(modelUpdateDelayMs);
    await clock.advance(1);
    await view.whenCurrent(uri, 9);
    assert.deepEqual(model.parses, []);
    assert.equal(view.modelVersion(uri), 1);
    const asked = clock.now();
    await view.whenCurrent(uri, 10);
    assert.deepEqual(model.parses, [asked]);
    assert.equal(view.modelVersion(uri), version);
    await clock.advance(100);
    assert.equal(model.parses.length, 1, 'parsed again by its timer');
  });

  test('a request below a change still waiting for its delay applies it and parses at once', async () => {
    const { clock, model, type, view } = openDocument();
    model.result = 'deferred';
    type(12);
    type(10);
    await clock.advance(0.5);
    await view.whenCurrent(uri, 9);
    assert.equal(model.changes.length, 0);
    await view.whenCurrent(uri, 11);
    assert.equal(model.changes.length, 1);
    assert.deepEqual(model.parses, [0.5]);
    assert.equal(view.modelVersion(uri), 3);
  });
});

describe('the version the model answers for is the one whose text it holds', () => {
  test('a whole-file parse queued behind a newer change answers for that newer version, which the parse included', async () => {
    const { clock, model, view, type, holdQueue, releaseQueue } = openDocument();
    model.result = 'deferred';
    type(3);
    await clock.advance(modelUpdateDelayMs + quietMs);
    assert.equal(model.changes.length, 1, 'version 2 reached the model and waits for its parse');
    // The folder is busy: the next change's update and then the parse's timer both queue behind it.
    holdQueue();
    const latest = type(5);
    await clock.advance(wholeParseDelay(undefined));
    releaseQueue();
    await clock.advance(0);
    assert.equal(model.changes.length, 2, 'version 3 reached the model first');
    assert.equal(model.parses.length, 1, 'then the parse ran, over the text of version 3 too');
    await clock.advance(maxWholeParseWaitMs);
    assert.equal(view.modelVersion(uri), latest, 'the model answers for version 3 (before: it said 2, and 3 was never published)');
  });
});

describe('a block an edit left broken (unverified)', () => {
  test(`its facts apply at once; the parse that confirms them waits until verifyDelayMs (${verifyDelayMs} ms) pass without a change`, async () => {
    const { clock, model, type, view } = openDocument();
    model.result = 'unverified';
    let last = 0;
    for (let at = 0; at < 3; at++) {
      last = type(3);
      await clock.advance(modelUpdateDelayMs);
      assert.equal(view.modelVersion(uri), last, 'applied before its confirmation');
      await clock.advance(100 - modelUpdateDelayMs);
    }
    const lastApplied = 200 + modelUpdateDelayMs;
    await clock.advanceTo(lastApplied + verifyDelayMs - 0.5);
    assert.deepEqual(model.parses, [], 'confirmed while the edits went on');
    await clock.advance(0.5);
    assert.deepEqual(model.parses, [lastApplied + verifyDelayMs]);
  });

  test('a request does not wait for the confirming parse', async () => {
    const { clock, model, type, view } = openDocument();
    model.result = 'unverified';
    const version = type(3);
    await clock.advance(modelUpdateDelayMs + 1);
    await view.whenCurrent(uri);
    await view.whenCurrent(uri, 3);
    assert.deepEqual(model.parses, []);
    assert.equal(view.modelVersion(uri), version);
    await clock.advance(verifyDelayMs);
    assert.equal(model.parses.length, 1);
  });
});

describe('a large file left broken, read region by region (isolated)', () => {
  test('its facts apply at once, no parse waits for it, and one an earlier edit set up to confirm its block is dropped; the repair sets one up again', async () => {
    const { clock, model, type, view } = openDocument();
    model.result = 'unverified';
    type(3);
    await clock.advance(modelUpdateDelayMs);
    model.result = 'isolated';
    const broken = type(3);
    await clock.advance(modelUpdateDelayMs);
    assert.equal(view.modelVersion(uri), broken, 'applied at once');
    await clock.advance(verifyDelayMs * 3);
    assert.deepEqual(model.parses, [], 'no whole-file parse of a file still broken');
    await view.whenCurrent(uri, 3);
    assert.deepEqual(model.parses, [], 'nor for a request below the change');
    model.result = 'unverified';
    const repaired = type(3);
    await clock.advance(maxQuietWaitMs); // the request above read the document a moment ago
    assert.equal(view.modelVersion(uri), repaired);
    await clock.advance(verifyDelayMs);
    assert.equal(model.parses.length, 1, 'the repair is confirmed once the typing pauses');
  });
});

describe('closing the document drops the work that waits for it', () => {
  test('a change still waiting for its delay', async () => {
    const { clock, model, type, close } = openDocument();
    type(3);
    await clock.advance(modelUpdateDelayMs / 2);
    close();
    await clock.advance(1000);
    assert.equal(model.closed, 1);
    assert.equal(model.changes.length, 0);
    assert.equal(clock.pendingTimers(), 0);
  });

  test('a whole-file parse waiting for its delay', async () => {
    const { clock, model, type, close } = openDocument();
    model.result = 'deferred';
    type(3);
    await clock.advance(modelUpdateDelayMs + 1);
    close();
    await clock.advance(1000);
    assert.equal(model.changes.length, 1);
    assert.deepEqual(model.parses, []);
    assert.equal(clock.pendingTimers(), 0);
  });

  test('a confirming parse waiting for the typing to pause', async () => {
    const { clock, model, type, close } = openDocument();
    model.result = 'unverified';
    type(3);
    await clock.advance(modelUpdateDelayMs + 1);
    close();
    await clock.advance(1000);
    assert.deepEqual(model.parses, []);
    assert.equal(clock.pendingTimers(), 0);
  });
});
