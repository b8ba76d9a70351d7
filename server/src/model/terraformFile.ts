// One `.tf` file's contribution: its variables, `var.x` references, target addresses and service-link blocks.
import type { AddressKind, MovedBlock, TargetAddress, TerraformFileContribution } from './contributions';
import { readLiteral } from './hclLiterals';
import { rangeOfNode, rangeSpanning } from './positions';
import type { Range } from './positions';
import { variableReferenceSteps } from './references';
import { allSteps } from './steps';
import type { Steps } from './steps';
import { readCloudBlock, readRemoteBackendBlock } from './serviceBlocks';
import { syntaxProblemSteps } from './syntaxProblems';
import { blockAttributes, blockKeyword, blockLabelNodes, labelValue, nestedBlocks, topLevelBlockSteps } from './syntaxTree';
import type { Node, Tree } from './treeSitter';
import { readVariableBlock } from './variableBlocks';

/** Parses one region of the file's text on its own (see TerraformParser.parseRegion). */
export type RegionParser = (startIndex: number, endIndex: number) => Tree;

/**
 * With `parseRegion`, a file with syntax errors is read block by block: tree-sitter's recovery sometimes turns
 * a whole file into one ERROR node after a half-typed block, and re-parsing each top-level block on its own
 * keeps the intact blocks intact. Syntax problems are still reported from the whole-file tree.
 */
export function extractTerraformFile(tree: Tree, file: string, parseRegion?: RegionParser): TerraformFileContribution {
  return allSteps(extractTerraformFileSteps(tree, file, parseRegion, Number.POSITIVE_INFINITY));
}

/**
 * extractTerraformFile a step at a time (steps.ts): a step per block, per region, and per `referenceRangeLength`
 * characters of references (one query over the whole tree when run at once: ranges cost a walk of the tree's top).
 * For a large closed file read on the server's thread, whose reading would otherwise hold up the requests.
 */
export function* extractTerraformFileSteps(tree: Tree, file: string, parseRegion: RegionParser | undefined, referenceRangeLength: number): Steps<TerraformFileContribution> {
  const root = tree.rootNode;
  const contribution: TerraformFileContribution = {
    kind: 'terraform',
    file,
    variables: [],
    references: [],
    addresses: [],
    moved: [],
    cloudBlocks: [],
    remoteBackends: [],
    syntaxProblems: yield* syntaxProblemSteps(root),
  };
  // A whole-file tree's root starts at offset 0, so offsets in its text are document offsets.
  const regions = root.hasError && parseRegion ? topLevelRegions(root.text) : [];
  if (!parseRegion || regions.length <= 1 || regions.length > maxRegions) {
    yield* collectSteps(root, file, contribution, referenceRangeLength);
    return contribution;
  }
  for (const [start, end] of regions) {
    const regionTree = parseRegion(start, end);
    try {
      collect(regionTree.rootNode, file, contribution);
    } finally {
      regionTree.delete();
    }
    yield;
  }
  return contribution;
}

export function collect(root: Node, file: string, into: TerraformFileContribution): void {
  allSteps(collectSteps(root, file, into, Number.POSITIVE_INFINITY));
}

function* collectSteps(root: Node, file: string, into: TerraformFileContribution, referenceRangeLength: number): Steps<void> {
  const blocks = yield* topLevelBlockSteps(root);
  if (blocks.length === 0) salvageHeader(root, file, into);
  for (const block of blocks) {
    collectBlock(block, file, into);
    yield;
  }
  const references = yield* variableReferenceSteps(root, file, undefined, referenceRangeLength);
  for (const reference of references) into.references.push(reference);
}

/** What one top-level block declares: a variable, a target address, a moved block, cloud/backend settings. */
export function collectBlock(block: Node, file: string, into: Omit<TerraformFileContribution, 'syntaxProblems' | 'kind' | 'file'>): void {
  const keyword = blockKeyword(block);
  if (keyword === 'variable') {
    const variable = readVariableBlock(block, file);
    if (variable) into.variables.push(variable);
  } else if (keyword === 'terraform') {
    for (const cloud of nestedBlocks(block, 'cloud')) into.cloudBlocks.push(readCloudBlock(cloud, file));
    for (const backend of nestedBlocks(block, 'backend')) {
      const remote = readRemoteBackendBlock(backend, file);
      if (remote) into.remoteBackends.push(remote);
    }
  } else if (isAddressKind(keyword)) {
    const address = readAddress(block, keyword, file);
    if (address) into.addresses.push(address);
  } else if (keyword === 'moved') {
    const moved = readMovedBlock(block, file);
    if (moved) (into.moved ??= []).push(moved);
  }
}

/**
 * A top-level block header at the start of a line (`resource "a" "b" {`), as `terraform fmt` writes them. Only
 * used to cut a broken file into regions for tree-sitter; the regions themselves are parsed by tree-sitter.
 */
const blockHeaderLine = /^[A-Za-z_][\w-]*(?:[ \t]+(?:"[^"\n]*"|[A-Za-z_][\w-]*))*[ \t]*\{/gm;

/** Past this many blocks in a broken file, re-parsing each costs more than it saves: read the whole-file tree. */
export const maxRegions = 2000;

export function topLevelRegions(text: string): [number, number][] {
  const starts = [0];
  for (const match of text.matchAll(blockHeaderLine)) if (match.index > 0) starts.push(match.index);
  return starts.map((start, index) => [start, index + 1 < starts.length ? starts[index + 1] : text.length]);
}

/**
 * A region so broken that tree-sitter returns only an ERROR node can still start with a readable header
 * (`variable "half" {`): keep the declaration or address it names, since the user is typing inside it.
 */
export function salvageHeader(root: Node, file: string, into: TerraformFileContribution): void {
  const error = root.type === 'ERROR' ? root : root.firstNamedChild?.type === 'ERROR' ? root.firstNamedChild : undefined;
  const keywordNode = error?.firstChild;
  if (!error || keywordNode?.type !== 'identifier') return;
  const labels: Node[] = [];
  let next = keywordNode.nextSibling;
  for (; next && (next.type === 'string_lit' || next.type === 'identifier'); next = next.nextSibling) labels.push(next);
  if (next?.type !== 'block_start' || labels.length === 0) return;
  const keyword = keywordNode.text;
  const range = { start: rangeOfNode(keywordNode).start, end: rangeOfNode(error).end };
  if (keyword === 'variable') {
    const name = labelValue(labels[0]);
    if (name) into.variables.push({ name, file, range, nameRange: rangeOfNode(labels[0]), sensitive: false, nullable: true });
  } else if (isAddressKind(keyword)) {
    const address = addressFrom(keyword, labels, file, range);
    if (address) into.addresses.push(address);
  }
}

function isAddressKind(keyword: string): keyword is AddressKind {
  return keyword === 'resource' || keyword === 'data' || keyword === 'ephemeral' || keyword === 'module';
}

function readAddress(block: Node, kind: AddressKind, file: string): TargetAddress | undefined {
  const address = addressFrom(kind, blockLabelNodes(block), file, rangeOfNode(block));
  if (!address) return undefined;
  const attributes = blockAttributes(block);
  if (kind === 'module') {
    const source = attributes.get('source')?.value;
    const literal = source ? readLiteral(source) : undefined;
    if (typeof literal?.value === 'string') address.source = literal.value;
  } else {
    address.attributes = [...attributes.values()].map((parts) => ({ name: parts.name, endLine: parts.range.end.line, endCharacter: parts.range.end.character }));
  }
  return address;
}

/** `moved { from = a  to = b }`: both are traversals, kept as written minus whitespace. */
function readMovedBlock(block: Node, file: string): MovedBlock | undefined {
  const attributes = blockAttributes(block);
  const from = attributes.get('from')?.value?.text.replace(/\s+/g, '');
  const to = attributes.get('to')?.value?.text.replace(/\s+/g, '');
  return from && to ? { from, to, file, range: rangeOfNode(block) } : undefined;
}

function addressFrom(kind: AddressKind, labels: Node[], file: string, range: Range): TargetAddress | undefined {
  const needed = kind === 'module' ? 1 : 2;
  if (labels.length < needed) return undefined;
  const values = labels.slice(0, needed).map(labelValue);
  if (values.some((value) => value === '')) return undefined;
  const labelsRange = rangeSpanning(labels[0], labels[needed - 1]);
  // Plain literals, not `{ ...common, address }`: V8 gave each object built by that spread a hidden class of its own
  // (6,000 in 1 MB), which made every read of an address megamorphic and moving them after an Enter 10 times slower.
  if (kind === 'module') return { kind, file, range, labelsRange, address: `module.${values[0]}`, name: values[0] };
  const [type, name] = values;
  const address = kind === 'resource' ? `${type}.${name}` : `${kind}.${type}.${name}`;
  return { kind, file, range, labelsRange, address, type, name };
}
