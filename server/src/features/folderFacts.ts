// Folder-wide facts the features need on every request (declared variables, the winning auto-loaded tfvars entry of
// each key), computed once per model change instead of per request: FolderIndex.effectiveTfvarsEntry re-sorts all
// files on each call, which would make diagnostics O(variables x files) on a large module.
import path from 'node:path';
import type { ModuleFolderModel, TfvarsEntry, VariableDeclaration } from '../model';

export interface FolderFacts {
  /** Bumped on every model change: cache keys for derived results (completion items...). */
  version: number;
  /** One declaration per name (the first by file), sorted by name. */
  variables: readonly VariableDeclaration[];
  variablesByName: ReadonlyMap<string, VariableDeclaration>;
  /** Auto-loaded tfvars entries of a key in load order; the last one is the value Terraform uses. */
  autoLoadedTfvarsByKey: ReadonlyMap<string, readonly TfvarsEntry[]>;
  /** The file new `variable` blocks go to: variables.tf when the folder has one, else undefined (use the current file). */
  variablesFile?: string;
}

interface CacheEntry {
  facts?: FolderFacts;
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
  entry.facts ??= buildFacts(model, entry.version);
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

function buildFacts(model: ModuleFolderModel, version: number): FolderFacts {
  const variables = model.index.variables();
  const variablesByName = new Map(variables.map((variable) => [variable.name, variable]));
  const autoLoadedTfvarsByKey = new Map<string, TfvarsEntry[]>();
  for (const entry of model.index.autoLoadedTfvarsEntries()) {
    const list = autoLoadedTfvarsByKey.get(entry.key);
    if (list) list.push(entry);
    else autoLoadedTfvarsByKey.set(entry.key, [entry]);
  }
  const variablesPath = path.join(model.folder, 'variables.tf');
  const variablesFile = model.index.get(variablesPath)?.kind === 'terraform' ? variablesPath : undefined;
  return { version, variables, variablesByName, autoLoadedTfvarsByKey, variablesFile };
}
