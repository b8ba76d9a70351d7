// The code model's public surface: import from './model' (server code) or 'server/src/model' (tests).
//
// Wiring it into the language server (one model per Terraform module folder, i.e. per folder holding .tf files):
//   const parser = await loadTerraformParser();            // once per process; wasm found beside dist/server.js
//   const model = await ModuleFolderModel.load({ folder, parser, environment: process.env, override });
//   didOpen   -> model.openDocument(uri, text)             didChange (incremental) -> model.changeDocument(uri, contentChanges)
//   didClose  -> await model.closeDocument(uri)            watched file changed/created -> await model.fileChanged(uri)
//   watched file deleted -> model.fileDeleted(uri)         settings changed -> model.setOverride(...) / setEnvironment(...)
//   model.onDidChange(({ files }) => republish diagnostics for those files)
// Queries: model.index (variables, references, addresses, tfvars entries, per-file syntax problems) and
// model.serviceLink() (hostname / organization / workspace, where each comes from, ranges for diagnostics).
// A folder's sub-folders are other modules: give each its own model.
export type {
  AddressKind,
  CloudBlock,
  ConfigSetting,
  FileContribution,
  MovedBlock,
  RemoteBackendBlock,
  SyntaxProblem,
  TargetAddress,
  TerraformFileContribution,
  TfvarsEntry,
  TfvarsFileContribution,
  VariableDeclaration,
  VariableReference,
} from './contributions';
export type { ChangeOffsets, TextChange } from './documentEdits';
export { classifyFileName, compareTfvarsLoadOrder, selectedWorkspaceFile } from './fileKinds';
export type { ModelFileKind } from './fileKinds';
export { nodeFileSystem } from './fileSystem';
export type { ModelFileSystem } from './fileSystem';
export { FolderIndex } from './folderIndex';
export { readLiteral } from './hclLiterals';
export type { LiteralObject, LiteralValue } from './hclLiterals';
export { ModuleFolderModel } from './moduleFolderModel';
export type { FileReadProblem, ModelChange, ModuleFolderModelOptions } from './moduleFolderOptions';
export { comparePositions, LineIndex, rangeContains } from './positions';
export { referenceNameRange, referenceRange } from './references';
export type { Position, Range, TextLines } from './positions';
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
