// Which service, organization and workspace(s) a folder is linked to, and where each piece comes from.
// Precedence follows Terraform: the cloud block's literal settings first, then TF_CLOUD_* variables for what it
// leaves out; TF_WORKSPACE or .terraform/environment select among tagged workspaces. An override setting (from
// the editor) beats everything, so a user can point a folder elsewhere without editing code.
import type { CloudBlock, ConfigSetting, RemoteBackendBlock } from './contributions';
import type { Range } from './positions';

export const defaultHostname = 'app.terraform.io';

export interface ServiceLinkOverride {
  hostname?: string;
  organization?: string;
  workspace?: string;
  project?: string;
}

export type LinkSource = 'override' | 'cloud-block' | 'remote-backend' | 'environment' | 'selected-workspace-file' | 'default';

export interface Sourced<T> {
  value: T;
  source: LinkSource;
  /** For `environment`: which variable, e.g. TF_CLOUD_ORGANIZATION. */
  variable?: string;
  /** For block and file sources: where it is written. */
  file?: string;
  range?: Range;
}

export type WorkspaceSelection =
  | { kind: 'name'; name: Sourced<string> }
  /** `tags`: the service finds the workspaces; `selected` is the one chosen by TF_WORKSPACE or `terraform workspace select`. */
  | { kind: 'tags'; tags: Sourced<string[] | Record<string, string>>; selected?: Sourced<string> }
  /** Legacy remote backend `prefix`: `selected` is the full service-side name (prefix + CLI workspace). */
  | { kind: 'prefix'; prefix: Sourced<string>; selected?: Sourced<string> };

export interface LinkProblem {
  /** Stable identifier for code that reacts to a problem (quick fixes, filtering); the message is for people. */
  code: 'extra-cloud-block' | 'cloud-and-backend' | 'missing-organization' | 'missing-workspace' | 'conflicting-workspace-settings' | 'workspace-mismatch' | 'not-literal';
  message: string;
  file?: string;
  range?: Range;
}

export interface ServiceLink {
  /** What links the folder; `none` when nothing does (no cloud block, no remote backend, no override). */
  mechanism: 'cloud' | 'remote-backend' | 'override' | 'none';
  hostname?: Sourced<string>;
  organization?: Sourced<string>;
  project?: Sourced<string>;
  workspace?: WorkspaceSelection;
  /** The `cloud` (or `backend "remote"`) block, for diagnostics on the link as a whole. */
  block?: { file: string; range: Range };
  /** The `name = "..."` line inside `workspaces`, for diagnostics such as "no such workspace". */
  workspaceNameLine?: { file: string; range: Range };
  problems: LinkProblem[];
}

export interface ServiceLinkInputs {
  cloudBlocks: CloudBlock[];
  remoteBackends: RemoteBackendBlock[];
  /** The environment the CLI would see (TF_CLOUD_ORGANIZATION, TF_CLOUD_HOSTNAME, TF_CLOUD_PROJECT, TF_WORKSPACE). */
  environment: Readonly<Record<string, string | undefined>>;
  /** Content of .terraform/environment, if the file exists. */
  selectedWorkspace?: { name: string; file: string };
  override?: ServiceLinkOverride;
}

export function resolveServiceLink(inputs: ServiceLinkInputs): ServiceLink {
  const problems: LinkProblem[] = [];
  const [cloud, ...extraClouds] = inputs.cloudBlocks;
  for (const extra of extraClouds) problems.push({ code: 'extra-cloud-block', message: 'Only one cloud block is allowed in a configuration; remove this one.', file: extra.file, range: extra.range });
  const [backend] = inputs.remoteBackends;
  if (cloud && backend) {
    problems.push({ code: 'cloud-and-backend', message: 'A configuration can use a cloud block or a backend, not both; the cloud block is used.', file: backend.file, range: backend.range });
  }
  const link = cloud ? fromCloudBlock(cloud, inputs, problems) : backend ? fromRemoteBackend(backend, inputs, problems) : { mechanism: 'none' as const, problems };
  return applyOverride(link, inputs.override ?? {});
}

function fromCloudBlock(cloud: CloudBlock, inputs: ServiceLinkInputs, problems: LinkProblem[]): ServiceLink {
  const env = environmentReader(inputs.environment);
  const fromBlock = (setting: ConfigSetting<string> | undefined, what: string) => blockValue(setting, 'cloud-block', cloud.file, what, problems);
  const link: ServiceLink = { mechanism: 'cloud', block: { file: cloud.file, range: cloud.range }, problems };
  link.hostname = fromBlock(cloud.hostname, 'hostname') ?? env('TF_CLOUD_HOSTNAME') ?? { value: defaultHostname, source: 'default' };
  link.organization = fromBlock(cloud.organization, 'organization') ?? env('TF_CLOUD_ORGANIZATION');
  if (!link.organization) {
    problems.push({ code: 'missing-organization', message: 'No organization: set `organization` in the cloud block or the TF_CLOUD_ORGANIZATION environment variable.', file: cloud.file, range: cloud.range });
  }
  link.project = fromBlock(cloud.workspaces?.project, 'project') ?? env('TF_CLOUD_PROJECT');

  const workspaces = cloud.workspaces;
  const name = fromBlock(workspaces?.name, 'workspace name');
  const tags = blockValue(workspaces?.tags, 'cloud-block', cloud.file, 'workspace tags', problems);
  const chosen = env('TF_WORKSPACE');
  if (workspaces?.name) link.workspaceNameLine = { file: cloud.file, range: workspaces.name.range };
  if (name && tags) {
    problems.push({ code: 'conflicting-workspace-settings', message: 'Use either `name` or `tags` in the workspaces block, not both.', file: cloud.file, range: workspaces?.range });
  }
  if (name) {
    link.workspace = { kind: 'name', name };
    if (chosen && chosen.value !== name.value) {
      problems.push({ code: 'workspace-mismatch', message: `TF_WORKSPACE is "${chosen.value}" but the cloud block names workspace "${name.value}"; Terraform refuses to run until they match.`, file: cloud.file, range: name.range });
    }
  } else if (tags) {
    const selected = chosen ?? selectedFromFile(inputs.selectedWorkspace);
    link.workspace = { kind: 'tags', tags, ...(selected ? { selected } : {}) };
  } else if (chosen) {
    link.workspace = { kind: 'name', name: chosen };
  } else {
    problems.push({ code: 'missing-workspace', message: 'No workspace: add `workspaces { name = "..." }` to the cloud block or set TF_WORKSPACE.', file: cloud.file, range: workspaces?.range ?? cloud.range });
  }
  return link;
}

function fromRemoteBackend(backend: RemoteBackendBlock, inputs: ServiceLinkInputs, problems: LinkProblem[]): ServiceLink {
  const fromBlock = (setting: ConfigSetting<string> | undefined, what: string) => blockValue(setting, 'remote-backend', backend.file, what, problems);
  const link: ServiceLink = { mechanism: 'remote-backend', block: { file: backend.file, range: backend.range }, problems };
  link.hostname = fromBlock(backend.hostname, 'hostname') ?? { value: defaultHostname, source: 'default' };
  link.organization = fromBlock(backend.organization, 'organization');
  if (!link.organization) problems.push({ code: 'missing-organization', message: 'The remote backend needs an `organization`.', file: backend.file, range: backend.range });
  const workspaces = backend.workspaces;
  const name = fromBlock(workspaces?.name, 'workspace name');
  const prefix = fromBlock(workspaces?.prefix, 'workspace prefix');
  if (workspaces?.name) link.workspaceNameLine = { file: backend.file, range: workspaces.name.range };
  if (name && prefix) problems.push({ code: 'conflicting-workspace-settings', message: 'Use either `name` or `prefix` in the workspaces block, not both.', file: backend.file, range: workspaces?.range });
  if (name) {
    link.workspace = { kind: 'name', name };
  } else if (prefix) {
    // The CLI workspace (TF_WORKSPACE or `terraform workspace select`) is the part after the prefix.
    const cliWorkspace = environmentReader(inputs.environment)('TF_WORKSPACE') ?? selectedFromFile(inputs.selectedWorkspace);
    const selected = cliWorkspace ? { ...cliWorkspace, value: prefix.value + cliWorkspace.value } : undefined;
    link.workspace = { kind: 'prefix', prefix, ...(selected ? { selected } : {}) };
  } else {
    problems.push({ code: 'missing-workspace', message: 'The remote backend needs `workspaces { name = "..." }` or `workspaces { prefix = "..." }`.', file: backend.file, range: workspaces?.range ?? backend.range });
  }
  return link;
}

function applyOverride(link: ServiceLink, override: ServiceLinkOverride): ServiceLink {
  const overridden = (value: string | undefined): Sourced<string> | undefined => (value ? { value, source: 'override' } : undefined);
  const hostname = overridden(override.hostname);
  const organization = overridden(override.organization);
  const project = overridden(override.project);
  const workspace = overridden(override.workspace);
  if (!hostname && !organization && !project && !workspace) return link;
  const result: ServiceLink = { ...link, mechanism: link.mechanism === 'none' ? 'override' : link.mechanism };
  if (hostname) result.hostname = hostname;
  else if (result.mechanism === 'override') result.hostname = { value: defaultHostname, source: 'default' };
  if (organization) result.organization = organization;
  if (project) result.project = project;
  if (workspace) result.workspace = { kind: 'name', name: workspace };
  // Problems the override settles no longer apply.
  result.problems = link.problems.filter(
    (problem) => !(organization && problem.code === 'missing-organization') && !(workspace && (problem.code === 'missing-workspace' || problem.code === 'workspace-mismatch')),
  );
  return result;
}

/** A block setting's literal value; a non-literal one is reported (Terraform only accepts literals there). */
function blockValue<T>(setting: ConfigSetting<T> | undefined, source: LinkSource, file: string, what: string, problems: LinkProblem[]): Sourced<T> | undefined {
  if (!setting) return undefined;
  if (setting.value === undefined) {
    problems.push({ code: 'not-literal', message: `The ${what} must be written as a literal value here (Terraform does not evaluate expressions in this block).`, file, range: setting.range });
    return undefined;
  }
  if (typeof setting.value === 'string' && setting.value === '') {
    problems.push({ code: 'not-literal', message: `The ${what} is empty: write it between the quotes.`, file, range: setting.range });
    return undefined;
  }
  return { value: setting.value, source, file, range: setting.range };
}

function environmentReader(environment: Readonly<Record<string, string | undefined>>) {
  return (variable: string): Sourced<string> | undefined => {
    const value = environment[variable];
    return value ? { value, source: 'environment', variable } : undefined;
  };
}

/** `default` is the CLI's built-in workspace, which no service workspace corresponds to. */
function selectedFromFile(selected: ServiceLinkInputs['selectedWorkspace']): Sourced<string> | undefined {
  const name = selected?.name.trim();
  return name && name !== 'default' ? { value: name, source: 'selected-workspace-file', file: selected?.file } : undefined;
}
