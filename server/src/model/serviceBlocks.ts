// The `terraform { cloud { ... } }` and legacy `terraform { backend "remote" { ... } }` blocks that link a folder
// to the service. Values are read only when literal: Terraform itself rejects expressions in these blocks.
import type { Node } from 'web-tree-sitter';
import type { CloudBlock, ConfigSetting, RemoteBackendBlock } from './contributions';
import { readLiteral } from './hclLiterals';
import type { LiteralValue } from './hclLiterals';
import { rangeOfNode } from './positions';
import { blockAttributes, blockLabelNodes, labelValue, nestedBlocks } from './syntaxTree';
import type { AttributeParts } from './syntaxTree';

export function readCloudBlock(cloud: Node, file: string): CloudBlock {
  const attributes = blockAttributes(cloud);
  const block: CloudBlock = { file, range: rangeOfNode(cloud) };
  assign(block, 'hostname', setting(attributes.get('hostname'), asString));
  assign(block, 'organization', setting(attributes.get('organization'), asString));
  const [workspaces] = nestedBlocks(cloud, 'workspaces');
  if (workspaces) {
    const inner = blockAttributes(workspaces);
    block.workspaces = { range: rangeOfNode(workspaces) };
    assign(block.workspaces, 'name', setting(inner.get('name'), asString));
    assign(block.workspaces, 'tags', setting(inner.get('tags'), asTags));
    assign(block.workspaces, 'project', setting(inner.get('project'), asString));
  }
  return block;
}

/** Undefined for backends other than "remote" (s3, local...): those do not talk to the service. */
export function readRemoteBackendBlock(backend: Node, file: string): RemoteBackendBlock | undefined {
  const [typeLabel] = blockLabelNodes(backend);
  if (!typeLabel || labelValue(typeLabel) !== 'remote') return undefined;
  const attributes = blockAttributes(backend);
  const block: RemoteBackendBlock = { file, range: rangeOfNode(backend) };
  assign(block, 'hostname', setting(attributes.get('hostname'), asString));
  assign(block, 'organization', setting(attributes.get('organization'), asString));
  const [workspaces] = nestedBlocks(backend, 'workspaces');
  if (workspaces) {
    const inner = blockAttributes(workspaces);
    block.workspaces = { range: rangeOfNode(workspaces) };
    assign(block.workspaces, 'name', setting(inner.get('name'), asString));
    assign(block.workspaces, 'prefix', setting(inner.get('prefix'), asString));
  }
  return block;
}

/** The setting's range is the whole `name = "x"` attribute: diagnostics point at the line the user wrote. */
function setting<T>(attribute: AttributeParts | undefined, convert: (value: LiteralValue) => T | undefined): ConfigSetting<T> | undefined {
  if (!attribute) return undefined;
  const expression = attribute.value;
  const literal = expression ? readLiteral(expression) : undefined;
  const value = literal ? convert(literal.value) : undefined;
  return { ...(value !== undefined ? { value } : {}), text: expression?.text ?? '', range: attribute.range };
}

function assign<T extends object, K extends keyof T>(target: T, key: K, value: T[K] | undefined): void {
  if (value !== undefined) target[key] = value;
}

function asString(value: LiteralValue): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function asTags(value: LiteralValue): string[] | Record<string, string> | undefined {
  if (Array.isArray(value)) return value.every((tag) => typeof tag === 'string') ? (value as string[]) : undefined;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value);
    return entries.every(([, tag]) => typeof tag === 'string') ? Object.fromEntries(entries as [string, string][]) : undefined;
  }
  return undefined;
}
