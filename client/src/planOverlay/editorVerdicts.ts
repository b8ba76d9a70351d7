// Which verdict marks belong in one editor: the blocks of every known overlay whose file is the editor's document,
// grouped by decoration type. No `vscode` import (ranges are LSP's zero-based lines), so it is unit-tested.
import type { PlanBlockVerdict, PlanOverlay } from '../../../server/src/protocol';
import { decorationKey, type DecorationKey } from './verdictLook';

export interface VerdictMark {
  key: DecorationKey;
  /** Zero-based line of the block's first line (where the gutter icon goes). */
  line: number;
  address: string;
  action: PlanBlockVerdict['action'];
  label: string;
  stale: boolean;
  runId: string;
}

/**
 * The same file can be written `file:///a%20b/main.tf` by one side and `file:///a b/main.tf` by the other (and a
 * Windows drive letter `C%3A` or `c:`), so URIs are compared decoded, drive letter lowercased, without a trailing `/`.
 */
export function sameFile(a: string, b: string): boolean {
  return normalizeUri(a) === normalizeUri(b);
}

export function normalizeUri(uri: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(uri);
  } catch {
    decoded = uri; // a stray % is not an encoding: compare as written
  }
  return decoded.replace(/^file:\/\/\/([A-Za-z]):/, (_, drive: string) => `file:///${drive.toLowerCase()}:`).replace(/\/+$/, '');
}

/** The marks of the document `uri` from every overlay, one per block, sorted by line. */
export function marksFor(uri: string, overlays: Iterable<PlanOverlay>): VerdictMark[] {
  const marks: VerdictMark[] = [];
  for (const overlay of overlays) {
    for (const block of overlay.blocks) {
      if (!sameFile(block.uri, uri)) continue;
      marks.push({
        key: decorationKey(block.action, overlay.stale),
        line: block.range.start.line,
        address: block.address,
        action: block.action,
        label: block.label,
        stale: overlay.stale,
        runId: overlay.runId,
      });
    }
  }
  return marks.sort((x, y) => x.line - y.line);
}

/** Marks grouped per decoration type; every type is present (an empty list clears what it drew before). */
export function marksByKey(marks: readonly VerdictMark[], keys: readonly DecorationKey[]): Map<DecorationKey, VerdictMark[]> {
  const grouped = new Map<DecorationKey, VerdictMark[]>(keys.map((key) => [key, []]));
  for (const mark of marks) grouped.get(mark.key)?.push(mark);
  return grouped;
}
