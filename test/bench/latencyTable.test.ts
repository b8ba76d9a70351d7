import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatLatencyTable, latencyRows } from './latencyTable';

const results = {
  oneMb: {
    bytes: 1_000_000,
    noop: { p50: 0.25, p90: 0.3, p99: 0.4, n: 100 },
    diagnosticsAfterEdit: { p50: 7, p90: 9, p99: 12.5, n: 200 },
    whileTyping: { completion: { p50: 1.5, p90: 2.9, p99: 8, n: 158 }, hover: { p50: 1.6, p90: 3, p99: 8.4, n: 158 } },
    memoryAfterOpen: { rssMb: 200, peakMb: 230 },
  },
  workspace: { fullIndexMs: 980, noopWhileIndexing: { p50: 4, p90: 12, p99: 28, n: 40 } },
};

test('every p50/p99 summary of every scenario is a row, nested ones by their path; other figures are not', () => {
  const rows = latencyRows(results);
  assert.deepEqual(
    rows.map((row) => `${row.scenario} ${row.measure}`),
    ['oneMb noop', 'oneMb diagnosticsAfterEdit', 'oneMb whileTyping.completion', 'oneMb whileTyping.hover', 'workspace noopWhileIndexing'],
  );
});

test('each latency is also a ratio to its own scenario\'s back-to-back no-op p50, and none where there is no no-op', () => {
  const rows = latencyRows(results);
  const byMeasure = new Map(rows.map((row) => [`${row.scenario} ${row.measure}`, row]));
  assert.equal(byMeasure.get('oneMb whileTyping.completion')?.p99OverNoop, 32);
  assert.equal(byMeasure.get('oneMb diagnosticsAfterEdit')?.p99OverNoop, 50);
  assert.equal(byMeasure.get('oneMb noop')?.p99OverNoop, undefined, 'the floor against itself');
  assert.equal(byMeasure.get('workspace noopWhileIndexing')?.p99OverNoop, undefined);
});

test('the table has a header, one line per row, figures to two decimals and the ratio to one', () => {
  const lines = formatLatencyTable(latencyRows(results)).split('\n');
  assert.equal(lines.length, 2 + 5);
  assert.match(lines[0]!, /^scenario\s+measure\s+p50 ms\s+p90 ms\s+p99 ms\s+n\s+p99 ÷ no-op$/);
  const completion = lines.find((line) => line.includes('whileTyping.completion'))!;
  assert.match(completion, /1\.50\s+2\.90\s+8\.00\s+158\s+32\.0×$/);
});
