// Folder-wide facts the features need on every request (declared variables, the winning auto-loaded tfvars entry of
// each key), computed once per model change instead of per request: FolderIndex.effectiveTfvarsEntry re-sorts all
// files on each call, which would make diagnostics O(variables x files) on a large module.
import path from 'node:path';
import type { ModuleFolderModel, TfvarsEntry, VariableDeclaration } from '../model';

export interface FolderFacts {
  /** Bumped on every model change: cache keys for derived results (completion items...). */
  version: number;
  /** One declaration per name (the first by file, then position), sorted by name. */
  variables: readonly VariableDeclaration[];
  variablesByName: ReadonlyMap<string, VariableDeclaration>;
  /** Auto-loaded tfvars entries of a key in load order; the last one is the value Terraform uses. */
  autoLoadedTfvarsByKey: ReadonlyMap<string, readonly TfvarsEntry[]>;
  /** Every auto-loaded tfvars entry in load order (what autoLoadedTfvarsByKey was built from). */
  autoLoadedTfvarsEntries: readonly TfvarsEntry[];
  /** The file new `variable` blocks go to: variables.tf when the folder has one, else undefined (use the current file). */
  variablesFile?: string;
}

interface CacheEntry {
  facts?: FolderFacts;
  /** The last facts built: their lists are kept when a change left them as they were (see buildFacts). */
  previous?: FolderFacts;
  version: number;
}

const cache = new WeakMap<ModuleFolderModel, CacheEntry>();

export function folderFacts(model: ModuleFolderModel): FolderFacts {
  let entry = cache.get(model);
  if (!entry) {
    const created: CacheEntry = { version: 0 };
    // Any change of the folder's files invalidates the facts; the next request rebuilds them once.
    model.onDidChange(() => {
      created.version++;
      created.facts = undefined;
    });
    cache.set(model, created);
    entry = created;
  }
  if (!entry.facts) {
    entry.facts = buildFacts(model, entry.version, entry.previous);
    entry.previous = entry.facts;
  }
  return entry.facts;
}

/**
 * Drops the cached facts now. The model's own change event also does this, but a listener registered before ours
 * (the core's, which fires the host's change event) may ask for facts before our listener has run.
 */
export function invalidateFolderFacts(model: ModuleFolderModel): void {
  const entry = cache.get(model);
  if (entry?.facts) {
    entry.version++;
    entry.facts = undefined;
  }
}

/**
 * A keystroke in a resource block changes the folder's model but rarely its declarations or tfvars: the previous
 * lists and maps are then kept as they were (same objects), so what is cached on them (completion items) survives.
 */
function buildFacts(model: ModuleFolderModel, version: number, previous: FolderFacts | undefined): FolderFacts {
  const found = model.index.variables();
  const sameVariables = previous !== undefined && sameItems(previous.variables, found);
  const variables = sameVariables ? previous.variables : found;
  const variablesByName = sameVariables ? previous.variablesByName : new Map(variables.map((variable) => [variable.name, variable]));
  const foundTfvars = model.index.autoLoadedTfvarsEntries();
  const sameTfvars = previous !== undefined && sameItems(previous.autoLoadedTfvarsEntries, foundTfvars);
  const variablesPath = path.join(model.folder, 'variables.tf');
  return {
    version,
    variables,
    variablesByName,
    autoLoadedTfvarsByKey: sameTfvars ? previous.autoLoadedTfvarsByKey : byKey(foundTfvars),
    autoLoadedTfvarsEntries: sameTfvars ? previous.autoLoadedTfvarsEntries : foundTfvars,
    variablesFile: model.index.get(variablesPath)?.kind === 'terraform' ? variablesPath : undefined,
  };
}

function byKey(entries: readonly TfvarsEntry[]): Map<string, TfvarsEntry[]> {
  const grouped = new Map<string, TfvarsEntry[]>();
  for (const entry of entries) {
    const list = grouped.get(entry.key);
    if (list) list.push(entry);
    else grouped.set(entry.key, [entry]);
  }
  return grouped;
}

function sameItems<T>(before: readonly T[], after: readonly T[]): boolean {
  if (before.length !== after.length) return false;
  for (let index = 0; index < before.length; index++) if (before[index] !== after[index]) return false;
  return true;
}
