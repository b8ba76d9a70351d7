// The code model's public surface: import from './model' (server code) or 'server/src/model' (tests).
export type {
  AddressKind,
  CloudBlock,
  ConfigSetting,
  FileContribution,
  RemoteBackendBlock,
  SyntaxProblem,
  TargetAddress,
  TerraformFileContribution,
  TfvarsEntry,
  TfvarsFileContribution,
  VariableDeclaration,
  VariableReference,
} from './contributions';
export type { TextChange } from './documentEdits';
export { classifyFileName, compareTfvarsLoadOrder, selectedWorkspaceFile } from './fileKinds';
export type { ModelFileKind } from './fileKinds';
export { nodeFileSystem } from './fileSystem';
export type { ModelFileSystem } from './fileSystem';
export { FolderIndex } from './folderIndex';
export { readLiteral } from './hclLiterals';
export type { LiteralObject, LiteralValue } from './hclLiterals';
export { ModuleFolderModel } from './moduleFolderModel';
export type { FileReadProblem, ModelChange, ModuleFolderModelOptions } from './moduleFolderModel';
export { comparePositions, LineIndex, rangeContains } from './positions';
export type { Position, Range } from './positions';
export { defaultHostname, resolveServiceLink } from './serviceLink';
export type { LinkProblem, LinkSource, ServiceLink, ServiceLinkInputs, ServiceLinkOverride, Sourced, WorkspaceSelection } from './serviceLink';
export { loadTerraformParser, resolveWasmLocation, TerraformParser } from './terraformParser';
export type { TerraformParserOptions, WasmLocation } from './terraformParser';
export { extractTerraformFile } from './terraformFile';
export { extractTfvarsFile } from './tfvarsFile';
export { checkValueAgainstType, describeValue } from './typeFit';
export type { TypeCheckOptions, TypeMismatch } from './typeFit';
export { parseTypeExpression, typeToString } from './typeExpression';
export type { ObjectAttributeType, TerraformType } from './typeExpression';
