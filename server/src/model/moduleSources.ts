// A module call's `source` that names a folder of the same code (`./modules/net`, `../shared`), as opposed to a
// registry or git module, whose code is not in the workspace. Plans follow such calls into the child's code
// (plans/mapping.ts); the link override tells child modules from root modules by them (documents/moduleCalls.ts).
export function isLocalModuleSource(source: string | undefined): source is string {
  return source !== undefined && (source.startsWith('./') || source.startsWith('../') || source === '.' || source === '..');
}
