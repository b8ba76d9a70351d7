// The one place that loads web-tree-sitter's code. It is required, not imported: for an `import`, esbuild picks
// the package's ES module build, which needs `import.meta.url` and breaks inside the CommonJS server bundle
// (dist/server.js); `require` picks its CommonJS build, which works both bundled and from sources under tsx.
// Everything else imports the values from here, so the process holds a single copy of the runtime.
import type * as WebTreeSitter from 'web-tree-sitter';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const webTreeSitter = require('web-tree-sitter') as typeof WebTreeSitter;

export const { Parser, Language, Edit, Query } = webTreeSitter;
export type { Node, Point, Tree } from 'web-tree-sitter';
export type Parser = WebTreeSitter.Parser;
export type Language = WebTreeSitter.Language;
export type Edit = WebTreeSitter.Edit;
export type Query = WebTreeSitter.Query;
