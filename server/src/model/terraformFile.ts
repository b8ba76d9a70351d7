// One `.tf` file's contribution: its variables, `var.x` references, target addresses and service-link blocks.
import type { Node, Tree } from 'web-tree-sitter';
import type { AddressKind, CloudBlock, RemoteBackendBlock, TargetAddress, TerraformFileContribution, VariableDeclaration } from './contributions';
import { rangeOfNode, rangeSpanning } from './positions';
import { findVariableReferences } from './references';
import { readCloudBlock, readRemoteBackendBlock } from './serviceBlocks';
import { findSyntaxProblems } from './syntaxProblems';
import { blockKeyword, blockLabelNodes, labelValue, nestedBlocks, topLevelBlocks } from './syntaxTree';
import { readVariableBlock } from './variableBlocks';

export function extractTerraformFile(tree: Tree, file: string): TerraformFileContribution {
  const root = tree.rootNode;
  const variables: VariableDeclaration[] = [];
  const addresses: TargetAddress[] = [];
  const cloudBlocks: CloudBlock[] = [];
  const remoteBackends: RemoteBackendBlock[] = [];
  for (const block of topLevelBlocks(root)) {
    const keyword = blockKeyword(block);
    if (keyword === 'variable') {
      const variable = readVariableBlock(block, file);
      if (variable) variables.push(variable);
    } else if (keyword === 'terraform') {
      for (const cloud of nestedBlocks(block, 'cloud')) cloudBlocks.push(readCloudBlock(cloud, file));
      for (const backend of nestedBlocks(block, 'backend')) {
        const remote = readRemoteBackendBlock(backend, file);
        if (remote) remoteBackends.push(remote);
      }
    } else if (isAddressKind(keyword)) {
      const address = readAddress(block, keyword, file);
      if (address) addresses.push(address);
    }
  }
  return {
    kind: 'terraform',
    file,
    variables,
    references: findVariableReferences(root, file),
    addresses,
    cloudBlocks,
    remoteBackends,
    syntaxProblems: findSyntaxProblems(root),
  };
}

function isAddressKind(keyword: string): keyword is AddressKind {
  return keyword === 'resource' || keyword === 'data' || keyword === 'ephemeral' || keyword === 'module';
}

function readAddress(block: Node, kind: AddressKind, file: string): TargetAddress | undefined {
  const labels = blockLabelNodes(block);
  const needed = kind === 'module' ? 1 : 2;
  if (labels.length < needed) return undefined;
  const values = labels.slice(0, needed).map(labelValue);
  if (values.some((value) => value === '')) return undefined;
  const labelsRange = rangeSpanning(labels[0], labels[needed - 1]);
  const common = { kind, file, range: rangeOfNode(block), labelsRange };
  if (kind === 'module') return { ...common, address: `module.${values[0]}`, name: values[0] };
  const [type, name] = values;
  const address = kind === 'resource' ? `${type}.${name}` : `${kind}.${type}.${name}`;
  return { ...common, address, type, name };
}
