// Which files of a module folder the model reads, and in which order Terraform auto-loads tfvars files.
import path from 'node:path';
export type ModelFileKind =
  | { kind: 'terraform' }
  | { kind: 'tfvars'; format: 'hcl' | 'json'; autoLoaded: boolean };

/** The file Terraform writes when `terraform workspace select` runs; it names the selected workspace. */
export const selectedWorkspaceFile = '.terraform/environment';

/**
 * Classifies a file name (no folder). Terraform ignores names starting with `.` or `#` and ending with `~`
 * (editor backups and lock files), so the model does too. Other `.tfvars` files (passed with -var-file) are
 * read, but marked as not auto-loaded.
 */
export function classifyFileName(name: string): ModelFileKind | undefined {
  if (name.startsWith('.') || name.startsWith('#') || name.endsWith('~')) return undefined;
  if (name.endsWith('.tf')) return { kind: 'terraform' };
  if (name.endsWith('.tfvars')) return { kind: 'tfvars', format: 'hcl', autoLoaded: name === 'terraform.tfvars' || name.endsWith('.auto.tfvars') };
  if (name.endsWith('.tfvars.json')) {
    return { kind: 'tfvars', format: 'json', autoLoaded: name === 'terraform.tfvars.json' || name.endsWith('.auto.tfvars.json') };
  }
  return undefined;
}

/** The kind of a model file of `folder` (absolute paths): only files directly in it, a sub-folder is another module with its own model. */
export function kindInFolder(folder: string, file: string): ModelFileKind | undefined {
  return path.dirname(file) === folder ? classifyFileName(path.basename(file)) : undefined;
}

/**
 * Terraform's load order for auto-loaded files: terraform.tfvars, terraform.tfvars.json, then *.auto.tfvars and
 * *.auto.tfvars.json in lexical order. A later file's value for a key wins.
 */
export function compareTfvarsLoadOrder(a: string, b: string): number {
  const rank = (name: string) => (name === 'terraform.tfvars' ? 0 : name === 'terraform.tfvars.json' ? 1 : 2);
  return rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);
}
