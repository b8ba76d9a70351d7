// Inlay hints after the arguments a plan changes, with the planned value: `→ "eu-north-1"`. Only for a block with
// one changing instance (with several, the values differ per instance: the hover lists them), only where the value
// is known before apply, and never for a sensitive one.
import { InlayHintKind } from 'vscode-languageserver';
import type { InlayHint, Range } from 'vscode-languageserver';
import type { TargetAddress } from '../model';
import type { PlanBlockVerdict, PlanOverlay } from '../protocol';

const maxHintLength = 60;

export function providePlanInlayHints(
  verdicts: ReadonlyArray<{ overlay: PlanOverlay; block: PlanBlockVerdict }>,
  blocksOfFile: readonly TargetAddress[],
  range: Range,
): InlayHint[] {
  const hints: InlayHint[] = [];
  for (const { block } of verdicts) {
    const changing = block.instances.filter((instance) => instance.action === 'update' || instance.action === 'replace' || instance.action === 'create');
    if (changing.length !== 1) continue;
    const code = blocksOfFile.find((candidate) => candidate.range.start.line === block.range.start.line && (candidate.kind === 'resource' || candidate.kind === 'data'));
    if (!code?.attributes) continue;
    for (const attribute of changing[0]!.attributes) {
      if (attribute.sensitive || attribute.unknownAfter || attribute.after === undefined) continue;
      const written = code.attributes.find((candidate) => candidate.name === attribute.name);
      if (!written || written.endLine < range.start.line || written.endLine > range.end.line) continue;
      hints.push({ position: { line: written.endLine, character: written.endCharacter }, label: `→ ${shorten(JSON.stringify(attribute.after) ?? '')}`, kind: InlayHintKind.Type, paddingLeft: true });
    }
  }
  return hints;
}

function shorten(text: string): string {
  return text.length > maxHintLength ? `${text.slice(0, maxHintLength - 1)}…` : text;
}
