// Generated inputs for `npm run bench`: a large single file (1 MB, 4 MB) and a 1,000-file module with 5,000
// variables and references everywhere, plus tfvars. Deterministic, so two runs measure the same work.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface LargeFile {
  folder: string;
  file: string;
  text: string;
  /** A blank line inside a resource block in the middle of the file: where the typing scenario types. */
  typingLine: number;
  /** The position of an existing `var.` reference (for hover). */
  hoverAt: { line: number; character: number };
  /** The line holding `var.undeclared_top`, the reference the diagnostics scenario renames. */
  undeclaredLine: number;
  variableCount: number;
}

/** One folder holding variables.tf (small) and main.tf of about `bytes` bytes. */
export async function writeLargeFile(root: string, name: string, bytes: number): Promise<LargeFile> {
  const folder = path.join(root, name);
  await mkdir(folder, { recursive: true });
  const variableCount = 2000;
  const variables: string[] = [];
  for (let v = 0; v < variableCount; v++) {
    variables.push(`variable "v_${v}" {\n  type        = ${v % 3 === 0 ? 'string' : 'number'}\n  description = "Setting ${v}"\n  default     = ${v % 3 === 0 ? `"value-${v}"` : v}\n}\n`);
  }
  await writeFile(path.join(folder, 'variables.tf'), variables.join('\n'));

  const lines: string[] = ['locals {', '  top = var.undeclared_top', '}', ''];
  const undeclaredLine = 1;
  let size = lines.join('\n').length;
  let typingLine = -1;
  let hoverAt = { line: 0, character: 0 };
  for (let index = 0; size < bytes; index++) {
    const block = [
      `resource "terraform_data" "r_${index}" {`,
      `  input = {`,
      `    name  = var.v_${index % variableCount}`,
      `    size  = var.v_${(index * 7) % variableCount}`,
      `    label = "\${var.v_${(index * 13) % variableCount}}-${index}"`,
      `  }`,
      '',
      `  triggers_replace = [var.v_${(index * 3) % variableCount}]`,
      `}`,
      '',
    ];
    if (typingLine < 0 && size > bytes / 2) {
      typingLine = lines.length + 6; // the blank line inside the block
      hoverAt = { line: lines.length + 2, character: '    name  = var.'.length + 1 };
    }
    lines.push(...block);
    size += block.join('\n').length + 1;
  }
  const text = lines.join('\n');
  const file = path.join(folder, 'main.tf');
  await writeFile(file, text);
  return { folder, file, text, typingLine, hoverAt, undeclaredLine, variableCount };
}

export interface GeneratedModule {
  folder: string;
  files: string[];
  /** The file the scenario opens while the rest indexes. */
  openFile: string;
}

/**
 * 1,000 files, 5 variables each (5,000), each file referring to its own variables and its neighbour's, and one
 * undeclared reference per file so every file gets diagnostics once indexed (that is how the bench sees the end of
 * indexing from outside). 20 folders of 50 files, as a real monorepo's modules would be laid out.
 */
export async function writeModule(root: string): Promise<GeneratedModule> {
  const folder = path.join(root, 'module');
  const files: string[] = [];
  const folderCount = 20;
  const filesPerFolder = 50;
  const variablesPerFile = 5;
  for (let f = 0; f < folderCount; f++) {
    const sub = path.join(folder, `m_${String(f).padStart(2, '0')}`);
    await mkdir(sub, { recursive: true });
    for (let i = 0; i < filesPerFolder; i++) {
      const blocks: string[] = [];
      for (let v = 0; v < variablesPerFile; v++) {
        blocks.push(`variable "v_${i}_${v}" {\n  description = "Setting ${v} of component ${i}"\n  type        = ${v % 2 ? 'number' : 'map(object({ port = number }))'}\n  default     = ${v % 2 ? v : '{}'}\n}\n`);
      }
      const next = (i + 1) % filesPerFolder;
      blocks.push(
        `resource "terraform_data" "component_${i}" {\n  input = {\n${Array.from({ length: variablesPerFile }, (_, v) => `    s${v} = var.v_${i}_${v}`).join('\n')}\n    neighbour = var.v_${next}_0\n    missing   = var.missing_${i}\n  }\n}\n`,
      );
      const file = path.join(sub, `component_${String(i).padStart(3, '0')}.tf`);
      await writeFile(file, blocks.join('\n'));
      files.push(file);
    }
    await writeFile(path.join(sub, 'terraform.tfvars'), Array.from({ length: 20 }, (_, i) => `v_${i}_1 = ${i}`).join('\n') + '\n');
  }
  // The last folder in discovery order: the one a priority-free indexer reaches last.
  const openFile = files[files.length - 1];
  return { folder, files, openFile };
}
