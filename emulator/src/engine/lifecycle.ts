// A resource block's `lifecycle` settings, which change how Terraform plans the resource's instances rather than
// what they hold: prevent_destroy (a plan that would destroy or replace one fails), create_before_destroy (a
// replacement creates the new object first) and ignore_changes (the listed arguments are not diffed against state).
// Terraform requires these to be literals (no variables), so reading the text is all the evaluation they need.
import type { Node } from 'web-tree-sitter';
import { attributeName, attributeValue, blockKeyword, bodyItems } from '../../../server/src/model/syntaxTree';

export interface ResourceLifecycle {
  preventDestroy: boolean;
  createBeforeDestroy: boolean;
  /**
   * Top-level argument names whose configured value never replaces the state's, or `all`. A nested path
   * (`tags["Name"]`) ignores its whole top-level argument: the emulator diffs arguments, not paths inside them.
   */
  ignoreChanges: string[] | 'all';
}

export const defaultLifecycle: ResourceLifecycle = { preventDestroy: false, createBeforeDestroy: false, ignoreChanges: [] };

export function readLifecycle(resource: Node): ResourceLifecycle {
  const lifecycle: ResourceLifecycle = { ...defaultLifecycle, ignoreChanges: [] };
  for (const block of bodyItems(resource).filter((item) => item.type === 'block' && blockKeyword(item) === 'lifecycle')) {
    for (const item of bodyItems(block)) {
      if (item.type !== 'attribute') continue;
      const text = attributeValue(item)?.text.trim() ?? '';
      const name = attributeName(item);
      if (name === 'prevent_destroy') lifecycle.preventDestroy = text === 'true';
      else if (name === 'create_before_destroy') lifecycle.createBeforeDestroy = text === 'true';
      else if (name === 'ignore_changes') lifecycle.ignoreChanges = ignoredArguments(text);
    }
  }
  return lifecycle;
}

/** `all` (also the legacy `"*"`), or `[tags, input]`: each element's first step is the argument it names. */
function ignoredArguments(text: string): string[] | 'all' {
  if (text === 'all' || text === '"*"' || text === '["*"]') return 'all';
  const inner = text.replace(/^\[/, '').replace(/\]$/, '');
  return inner
    .split(',')
    .map((element) => /^\s*"?([A-Za-z_][\w-]*)/.exec(element)?.[1])
    .filter((name): name is string => name !== undefined);
}

/** Whether a change to the argument is ignored. */
export function ignoresChanges(lifecycle: ResourceLifecycle | undefined, argument: string): boolean {
  if (!lifecycle) return false;
  return lifecycle.ignoreChanges === 'all' || lifecycle.ignoreChanges.includes(argument);
}
