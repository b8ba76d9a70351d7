// Makes `import * as vscode from 'vscode'` in the client's sources load ./vscode.ts. Import this module before any
// client module: the tests run as CommonJS, so imports are required in the order they are written.
import Module from 'node:module';
import * as fake from './vscode';

const loader = Module as unknown as { _load(request: string, ...rest: unknown[]): unknown };
const load = loader._load;
loader._load = function loadWithFakeVscode(this: unknown, request: string, ...rest: unknown[]) {
  return request === 'vscode' ? fake : load.call(this, request, ...rest);
};
