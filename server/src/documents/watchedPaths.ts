// Which paths below a workspace folder the server's own disk watcher reports: those the watch globs name (the ones
// a client is asked to watch), outside the trees no module file of the workspace lives in. A client's watcher
// leaves those out by its own exclusions (VS Code's files.watcherExclude); the server's must do it itself, or a
// `terraform init` (providers of hundreds of MB under .terraform) or an `npm install` floods the models.
import path from 'node:path';

/** Folders whose contents are never the workspace's module files (`.terraform/environment` is the one exception). */
const ignoredFolders = new Set(['.git', '.hg', '.svn', 'node_modules']);

/** A glob of the watch list (`**` any folders, `*` any name part) as a matcher of `/`-separated relative paths. */
export function globMatcher(glob: string): (relativePath: string) => boolean {
  let pattern = '';
  for (let i = 0; i < glob.length; i++) {
    if (glob.startsWith('**/', i)) {
      pattern += '(?:.*/)?';
      i += 2;
    } else if (glob[i] === '*') pattern += '[^/]*';
    else if (glob[i] === '?') pattern += '[^/]';
    else pattern += glob[i]!.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  const regex = new RegExp(`^${pattern}$`);
  return (relativePath) => regex.test(relativePath);
}

/** Whether a change at `relativePath` (relative to a workspace folder, in the platform's separators) is reported. */
export function watchedPathFilter(globs: readonly string[]): (relativePath: string) => boolean {
  const matchers = globs.map(globMatcher);
  return (relativePath) => {
    const segments = codeSegments(relativePath);
    // Under .terraform only the selected workspace counts: its modules and providers are downloads, not the code.
    const terraformDir = segments?.indexOf('.terraform') ?? -1;
    if (!segments || (terraformDir >= 0 && !(terraformDir === segments.length - 2 && segments[terraformDir + 1] === 'environment'))) return false;
    const slashed = segments.join('/');
    return matchers.some((matches) => matches(slashed));
  };
}

/**
 * Whether a path the globs do not name may be a folder holding watched files (a module folder, or `.terraform`
 * with its `environment`): when such a folder is deleted or moved away, the watch may report only the folder, not
 * the files it held. Nothing below `.terraform` qualifies: `terraform init` renames hundreds of downloads there.
 */
export function mayHoldWatchedFiles(relativePath: string): boolean {
  const segments = codeSegments(relativePath);
  const terraformDir = segments?.indexOf('.terraform') ?? -1;
  return segments !== undefined && (terraformDir < 0 || terraformDir === segments.length - 1);
}

/** The path's segments, or undefined for a path outside the folder or inside a tree that never holds module files. */
function codeSegments(relativePath: string): string[] | undefined {
  const segments = relativePath.split(path.sep).filter((segment) => segment !== '');
  if (segments.length === 0 || segments.includes('..')) return undefined;
  return segments.some((segment) => ignoredFolders.has(segment)) ? undefined : segments;
}
