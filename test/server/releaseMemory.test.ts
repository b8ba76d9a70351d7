import assert from 'node:assert/strict';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import type { PerformanceEntry } from 'node:perf_hooks';
import { test } from 'node:test';
import { collectGarbageSoon } from '../../server/src/documents/releaseMemory';

test('after a large document closes, a full (major) collection runs, where V8 alone would wait', async () => {
  let seen!: () => void;
  const majorCollection = new Promise<string>((resolve) => (seen = () => resolve('major collection')));
  const observer = new PerformanceObserver((list) => {
    const isMajor = (entry: PerformanceEntry) => (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR;
    if (list.getEntries().some(isMajor)) seen();
  });
  observer.observe({ entryTypes: ['gc'] });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    assert.equal(collectGarbageSoon(0), true);
    const bound = new Promise<string>((resolve) => (timer = setTimeout(() => resolve('no major collection within 10 s'), 10_000)));
    assert.equal(await Promise.race([majorCollection, bound]), 'major collection');
  } finally {
    clearTimeout(timer);
    observer.disconnect();
  }
});
