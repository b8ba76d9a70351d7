// What decides a module folder's link besides its code, and the link they make with the folder's cloud and backend
// blocks: the environment, the editor's override and the workspace `terraform workspace select` chose
// (.terraform/environment). Apart from ModuleFolderModel, which keeps these inputs (its disk side reads the selected
// workspace) and the link it resolved until anything changes: resolving reads the whole folder's facts, this file
// says how, the model when.
import type { FileContribution } from './contributions';
import type { FolderIndex } from './folderIndex';
import { resolveServiceLink } from './serviceLink';
import type { ServiceLink, ServiceLinkOverride } from './serviceLink';

export interface LinkInputs {
  /** The environment Terraform would run with (see ModuleFolderModelOptions.environment). */
  environment: Readonly<Record<string, string | undefined>>;
  /** Editor setting that wins over the code and the environment. */
  override: ServiceLinkOverride;
  /** The workspace .terraform/environment names, and that file's path (undefined: none, or not read yet). */
  selectedWorkspace: { name: string; file: string } | undefined;
}

/** The link the folder's files (`contributions`, in the index's order) make with `inputs`. */
export function resolveFolderLink(contributions: readonly FileContribution[], inputs: LinkInputs): ServiceLink {
  return resolveServiceLink({
    cloudBlocks: contributions.flatMap((contribution) => (contribution.kind === 'terraform' ? contribution.cloudBlocks : [])),
    remoteBackends: contributions.flatMap((contribution) => (contribution.kind === 'terraform' ? contribution.remoteBackends : [])),
    environment: inputs.environment,
    selectedWorkspace: inputs.selectedWorkspace,
    override: inputs.override,
  });
}

/** The link as it would be were `file` (an absolute path) to contribute `contribution` instead of what `index` holds. */
export function resolveFolderLinkWith(index: FolderIndex, file: string, contribution: FileContribution, inputs: LinkInputs): ServiceLink {
  // In the index's order (by file): the first cloud block found is the one that links, as for the folder's own link.
  const files = [...new Set([...index.files(), file])].sort();
  return resolveFolderLink(files.map((other) => (other === file ? contribution : index.get(other))).filter((found): found is FileContribution => found !== undefined), inputs);
}

export function sameOverride(a: ServiceLinkOverride, b: ServiceLinkOverride): boolean {
  return a.hostname === b.hostname && a.organization === b.organization && a.workspace === b.workspace && a.project === b.project;
}
