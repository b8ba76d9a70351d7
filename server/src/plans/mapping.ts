// A plan's resource instances → the blocks of a folder's code that declare them. Pure: it reads plain code data
// (addresses with ranges, moved blocks, module calls with their `source`) and the plan's changes.
//  - module steps are followed through calls whose `source` is a local path (`./x`, `../x`) into that folder's code;
//    a registry/git module has no code here, so its changes are unmatched;
//  - count / for_each instances (`a.b[0]`, `a.b["k"]`) group on their block;
//  - `moved { from = a  to = b }` is followed when the plan names an address the code no longer declares;
//  - anything left (a destroyed resource whose block is gone) is unmatched.
// Every resource/data block of the folder (and of its local modules) gets a verdict: no entry in the plan = no changes.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { MovedBlock, TargetAddress } from '../model';
import { isLocalModuleSource } from '../model/moduleSources';
import type { PlanBlockVerdict, PlanInstanceChange } from '../protocol';
import { parseAddress, resourceKey, withoutKeys } from './addresses';
import type { ParsedAddress } from './addresses';
import { blockLabel, strongestAction } from './labels';

/** One module folder's code, as the mapping needs it. */
export interface ModuleCode {
  /** Absolute path of the module folder. */
  folder: string;
  addresses: readonly TargetAddress[];
  moved: readonly MovedBlock[];
}

/** The code of another module folder (a local module's source), when the server has a model for it. */
export type ModuleCodeLookup = (folder: string) => ModuleCode | undefined;

export interface PlanMapping {
  blocks: PlanBlockVerdict[];
  unmatched: PlanInstanceChange[];
  /** Every module folder whose code was read (the root first): an edit in any of them makes the overlay stale. */
  folders: string[];
}

/** Nested module calls deeper than this are not followed (and a module that calls itself is cut off). */
const maxModuleDepth = 16;

interface Slot {
  block: TargetAddress;
  /** The block's address with its module path (`module.net.aws_vpc.main`). */
  address: string;
  instances: PlanInstanceChange[];
  grouped: boolean;
  drifted: boolean;
}

export function mapPlanToCode(root: ModuleCode, lookup: ModuleCodeLookup, changes: readonly PlanInstanceChange[], drift: readonly PlanInstanceChange[] = []): PlanMapping {
  const slots = new Map<string, Slot>();
  const folders = new Set<string>([root.folder]);
  // Every block reachable through local module calls, keyed by its full address.
  const visit = (code: ModuleCode, prefix: string, depth: number, seen: ReadonlySet<string>) => {
    for (const block of code.addresses) {
      if (block.kind === 'resource' || block.kind === 'data') {
        const address = prefix + block.address;
        if (!slots.has(address)) slots.set(address, { block, address, instances: [], grouped: false, drifted: false });
      } else if (block.kind === 'module' && depth < maxModuleDepth) {
        const child = childCode(code, block, lookup);
        if (child) folders.add(child.folder);
        if (child && !seen.has(child.folder)) visit(child, `${prefix}${block.address}.`, depth + 1, new Set([...seen, child.folder]));
      }
    }
  };
  visit(root, '', 0, new Set([root.folder]));

  const unmatched: PlanInstanceChange[] = [];
  for (const change of changes) {
    const slot = locate(root, lookup, change.address, slots);
    if (!slot) {
      unmatched.push(change);
      continue;
    }
    slot.slot.instances.push(change);
    if (slot.parsed.key !== undefined || slot.parsed.modules.some((step) => step.key !== undefined)) slot.slot.grouped = true;
  }
  for (const change of drift) {
    if (change.action === 'no-op') continue;
    const slot = locate(root, lookup, change.address, slots);
    if (slot) slot.slot.drifted = true;
  }

  const blocks = [...slots.values()].map((slot): PlanBlockVerdict => {
    const verdict: PlanBlockVerdict = {
      uri: pathToFileURL(slot.block.file).href,
      range: { start: slot.block.range.start, end: { line: slot.block.range.start.line, character: slot.block.labelsRange.end.character } },
      address: slot.address,
      action: strongestAction(slot.instances),
      label: blockLabel(slot.instances, slot.grouped, slot.drifted),
      instances: slot.instances,
    };
    if (slot.drifted) verdict.drifted = true;
    return verdict;
  });
  blocks.sort((a, b) => a.uri.localeCompare(b.uri) || a.range.start.line - b.range.start.line);
  return { blocks, unmatched, folders: [...folders] };
}

function childCode(code: ModuleCode, call: TargetAddress, lookup: ModuleCodeLookup): ModuleCode | undefined {
  return isLocalModuleSource(call.source) ? lookup(path.resolve(code.folder, call.source)) : undefined;
}

/** The slot of a planned instance: module calls followed (with moved blocks), then the resource (with moved blocks). */
function locate(root: ModuleCode, lookup: ModuleCodeLookup, address: string, slots: Map<string, Slot>): { slot: Slot; parsed: ParsedAddress } | undefined {
  const parsed = parseAddress(address);
  if (!parsed) return undefined;
  let code: ModuleCode | undefined = root;
  let prefix = '';
  for (const step of parsed.modules) {
    const name = followMoved(code, `module.${step.name}`, (candidate) => code!.addresses.some((block) => block.kind === 'module' && block.address === candidate));
    const call = code.addresses.find((block) => block.kind === 'module' && block.address === name);
    if (!call) return undefined;
    code = childCode(code, call, lookup);
    if (!code) return undefined; // a remote module: no code to put it on
    prefix += `${name}.`;
  }
  const current = code;
  const key = followMoved(current, resourceKey(parsed), (candidate) => slots.has(prefix + candidate));
  const slot = slots.get(prefix + key);
  return slot ? { slot, parsed } : undefined;
}

/** `address` itself when `exists`; else where `moved` blocks take it (a chain, at most a few hops). */
function followMoved(code: ModuleCode, address: string, exists: (candidate: string) => boolean): string {
  let current = address;
  for (let hop = 0; hop < 8 && !exists(current); hop++) {
    const move = code.moved.find((candidate) => withoutKeys(candidate.from) === current);
    if (!move) break;
    current = withoutKeys(move.to);
  }
  return current;
}

