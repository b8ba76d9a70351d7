// The language features' entry point: lsp-core calls registerLanguageFeatures once from server.ts (see host.ts).
export { registerLanguageFeatures } from './register';
export type { LanguageFeatures, LanguageFeaturesOptions, OpenDocuments } from './register';
export type * from './host';
export { diagnosticCodes, diagnosticSource } from './diagnosticData';
export { runActionKinds } from './runActions';
export { resolveVariableValue } from './valueResolution';
export type { ResolvedValue, ValueSource, ValueSourceKind } from './valueResolution';
