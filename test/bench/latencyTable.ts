// The bench's table: every latency a scenario measured (each p50/p90/p99 summary in its results, wherever it sits),
// with its ratio to the no-op request measured back to back in the same server, the floor the transport sets. The
// targets below it say met or missed; this is the whole picture, code actions and diagnostics included.

export interface LatencyRow {
  scenario: string;
  /** The summary's path in the scenario's results, e.g. "whileTyping.completion". */
  measure: string;
  p50: number;
  p90?: number;
  p99: number;
  n: number;
  /** p99 over the scenario's own back-to-back no-op p50; undefined when the scenario measured none. */
  p99OverNoop?: number;
}

interface Summary {
  p50: number;
  p90?: number;
  p99: number;
  n: number;
}

function isSummary(value: unknown): value is Summary {
  if (typeof value !== 'object' || value === null) return false;
  const { p50, p99, n } = value as Record<string, unknown>;
  return typeof p50 === 'number' && typeof p99 === 'number' && typeof n === 'number';
}

/** `results`: the bench's results by scenario (oneMb, workspace…), as bench.json holds them. */
export function latencyRows(results: Record<string, unknown>): LatencyRow[] {
  const rows: LatencyRow[] = [];
  for (const [scenario, measured] of Object.entries(results)) {
    if (typeof measured !== 'object' || measured === null) continue;
    const noop = (measured as Record<string, unknown>).noop;
    const floor = isSummary(noop) ? Math.max(noop.p50, 0.01) : undefined;
    const visit = (value: unknown, at: string[]) => {
      if (isSummary(value)) {
        rows.push({
          scenario,
          measure: at.join('.'),
          p50: value.p50,
          ...(value.p90 !== undefined ? { p90: value.p90 } : {}),
          p99: value.p99,
          n: value.n,
          ...(floor !== undefined && at.join('.') !== 'noop' ? { p99OverNoop: value.p99 / floor } : {}),
        });
        return;
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
      for (const [key, inner] of Object.entries(value)) visit(inner, [...at, key]);
    };
    visit(measured, []);
  }
  return rows;
}

/** A fixed-width text table (ms to two decimals; the ratio to one). */
export function formatLatencyTable(rows: readonly LatencyRow[]): string {
  const header = ['scenario', 'measure', 'p50 ms', 'p90 ms', 'p99 ms', 'n', 'p99 ÷ no-op'];
  const cells = rows.map((row) => [
    row.scenario,
    row.measure,
    row.p50.toFixed(2),
    row.p90 === undefined ? '' : row.p90.toFixed(2),
    row.p99.toFixed(2),
    String(row.n),
    row.p99OverNoop === undefined ? '' : `${row.p99OverNoop.toFixed(1)}×`,
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...cells.map((cell) => cell[column]!.length)));
  // Text left, figures right, as a reader scans each.
  const line = (cell: string[]) => cell.map((text, column) => (column < 2 ? text.padEnd(widths[column]!) : text.padStart(widths[column]!))).join('  ');
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...cells.map(line)].join('\n');
}
