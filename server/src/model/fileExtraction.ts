// A closed file's facts from its text: parse, extract, free the tree. The same function runs in the server and in
// its indexing workers (../indexing), so a file indexed in either place contributes exactly the same facts.
import path from 'node:path';
import type { FileContribution } from './contributions';
import type { ModelFileKind } from './fileKinds';
import { TreeSitterPoints } from './positions';
import type { TerraformParser } from './terraformParser';
import { referenceRangeLength } from './references';
import { allSteps, stepsInSlices } from './steps';
import type { Steps } from './steps';
import { extractTerraformFileSteps } from './terraformFile';
import type { Tree } from './treeSitter';
import { extractTfvarsFile } from './tfvarsFile';

/** The facts, or the sentence the Problems view shows when the file cannot be read. */
export type FileExtraction = { contribution: FileContribution; problem?: undefined } | { contribution?: undefined; problem: string };

export function extractFileText(parser: TerraformParser, file: string, kind: ModelFileKind, text: string): FileExtraction {
  let tree;
  try {
    tree = parser.parse(text);
  } catch (error) {
    return parseProblem(file, error);
  }
  // One query for the references over the whole tree: ranges cost a walk of the tree's top.
  return allSteps(readTree(parser, tree, file, kind, text, Number.POSITIVE_INFINITY));
}

/**
 * extractFileText with the parse in slices and the reading in steps, the event loop free between them: for a large
 * file read on the server's thread (a 160 KB file of variables held the requests up for 0.3 s). Undefined once
 * `cancelled` says the file is wanted no more.
 */
export async function extractFileTextInSlices(parser: TerraformParser, file: string, kind: ModelFileKind, text: string, cancelled: () => boolean): Promise<FileExtraction | undefined> {
  let tree: Tree | undefined;
  try {
    // Undefined also when a recycle replaced the parser's runtime meanwhile: parsed again in the new one.
    while (!tree) {
      if (cancelled()) return undefined;
      tree = await parser.parseInSlices(text, undefined, { cancelled });
    }
  } catch (error) {
    return parseProblem(file, error);
  }
  return stepsInSlices(readTree(parser, tree, file, kind, text, referenceRangeLength));
}

/** The facts of `tree` (a parse of `text`), which is deleted once they are read. */
function* readTree(parser: TerraformParser, tree: Tree, file: string, kind: ModelFileKind, text: string, referenceRangeLength: number): Steps<FileExtraction> {
  try {
    if (kind.kind === 'tfvars') return { contribution: extractTfvarsFile(tree, file, kind.format, kind.autoLoaded) };
    let points: TreeSitterPoints | undefined;
    const parseRegion = (start: number, end: number) => parser.parseRegion(text, start, end, (points ??= new TreeSitterPoints(text)));
    return { contribution: yield* extractTerraformFileSteps(tree, file, parseRegion, referenceRangeLength) };
  } catch (error) {
    return { problem: `Cannot index ${path.basename(file)}: ${describeError(error)}` };
  } finally {
    tree.delete();
  }
}

function parseProblem(file: string, error: unknown): FileExtraction {
  return { problem: `Cannot parse ${path.basename(file)}: ${describeError(error)}` };
}

export function describeError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'EISDIR' ? 'it is a folder' : code;
  return error instanceof Error ? error.message : String(error);
}
