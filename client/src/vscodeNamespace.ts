// The bundle's one view of the `vscode` module (#13: activation ≤ 100 ms). esbuild turns each file's
// `import * as vscode from 'vscode'` into its own copy of the API's names (a getter per name: ~450 names × 47 files,
// ~20 ms of every activation, profiled); esbuild.mjs points those imports here instead, so the names are copied once.
export * from 'vscode';
