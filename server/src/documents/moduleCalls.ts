// Which module folders are child modules. Terraform plans and applies a root module; a folder that another module
// folder calls through a `module` block with a local `source` ("./modules/net") is part of that root's
// configuration (its variables get their values from the call, its resources' addresses start with
// `module.net.`), not a configuration run on its own. Kept per file, so an edit re-reads only the calls of the
// files it changed.
import path from 'node:path';
import type { ModuleFolderModel } from '../model';
import { isLocalModuleSource } from '../model/moduleSources';

export class ModuleCalls {
  /** For each file that calls some, the other module folders its local module calls name (sorted). */
  private readonly calledByFile = new Map<string, readonly string[]>();

  /** Reads again what these files of the model call; true when that changed. */
  update(model: ModuleFolderModel, files: Iterable<string>): boolean {
    let changed = false;
    for (const file of files) {
      const called = localCallsOf(model, file);
      if (sameFolders(this.calledByFile.get(file) ?? [], called)) continue;
      changed = true;
      if (called.length > 0) this.calledByFile.set(file, called);
      else this.calledByFile.delete(file);
    }
    return changed;
  }

  /** The folder's model went away: its files call nothing any more. True when they called something. */
  forget(folder: string): boolean {
    let changed = false;
    for (const file of [...this.calledByFile.keys()]) {
      if (path.dirname(file) !== folder) continue;
      this.calledByFile.delete(file);
      changed = true;
    }
    return changed;
  }

  /** Whether another module folder calls this one as a module. */
  isChild(folder: string): boolean {
    for (const called of this.calledByFile.values()) if (called.includes(folder)) return true;
    return false;
  }
}

/** The folders the file's local module calls name, its own folder left out (a module cannot call itself). */
function localCallsOf(model: ModuleFolderModel, file: string): string[] {
  const contribution = model.index.get(file);
  if (contribution?.kind !== 'terraform') return [];
  const called = new Set<string>();
  for (const block of contribution.addresses) {
    if (block.kind !== 'module' || !isLocalModuleSource(block.source)) continue;
    const folder = path.resolve(model.folder, block.source);
    if (folder !== model.folder) called.add(folder);
  }
  return [...called].sort();
}

function sameFolders(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((folder, index) => folder === b[index]);
}
