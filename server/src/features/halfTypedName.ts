// A cloud block whose organization or workspace name is still being typed (`organization = "acme-`, no closing
// quote yet) does not parse: until the quote is typed the model has no cloud block in that file, and no link, so
// completion there offered nothing. Completion reads that file as it will be once the string is closed: the text
// with the quote added, parsed on its own (the model keeps the text as typed).
import path from 'node:path';
import { classifyFileName } from '../model';
import type { FileContribution, ModuleFolderModel, Position, ServiceLink, TerraformParser, TextLines } from '../model';
import { extractFileText } from '../model/fileExtraction';

/** The value of an organization or workspace name whose string is open at the cursor. */
const openNameString = /^\s*(?:organization|name)\s*=\s*"[^"]*$/;
/**
 * Above this the file is not parsed again for a completion (a keystroke's worth of time): a cloud block lives in a
 * small file (main.tf, backend.tf), not in a 1 MB one.
 */
const maxReparsedLength = 256 * 1024;

export interface ClosedStringReading {
  /** The file's facts with the string closed. */
  contribution: FileContribution;
  /** The folder's link with that file's facts in place of the broken ones. */
  link: ServiceLink;
}

export function readWithStringClosed(
  model: ModuleFolderModel,
  file: string,
  text: string,
  lines: TextLines,
  position: Position,
  parser: TerraformParser | undefined,
): ClosedStringReading | undefined {
  if (!parser || text.length > maxReparsedLength || classifyFileName(path.basename(file))?.kind !== 'terraform') return undefined;
  const offset = lines.offsetAt(position);
  const lineStart = lines.offsetAt({ line: position.line, character: 0 });
  const lineEnd = lines.offsetAt({ line: position.line, character: Number.MAX_SAFE_INTEGER });
  const before = text.slice(lineStart, offset);
  const after = text.slice(offset, lineEnd).replace(/\r?\n$/, '');
  if (!openNameString.test(before) || after.includes('"')) return undefined;
  // The quote goes after what is typed on the line (before trailing blanks and a \r), where the user will put it.
  const closeAt = offset + after.trimEnd().length;
  const extraction = extractFileText(parser, file, { kind: 'terraform' }, `${text.slice(0, closeAt)}"${text.slice(closeAt)}`);
  if (!extraction.contribution) return undefined;
  return { contribution: extraction.contribution, link: model.serviceLinkWith(file, extraction.contribution) };
}
