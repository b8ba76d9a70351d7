// Every `var.x` in a file, wherever it appears (attributes, templates, for expressions, broken code).
import { runtimeOf } from './treeSitter';
import type { Language, Node, Point, Query, QueryMatch } from './treeSitter';
import { allSteps } from './steps';
import type { Steps } from './steps';
import type { VariableReference } from './contributions';
import type { Range } from './positions';

/**
 * Found in the syntax tree: every `variable_expr` whose identifier is `var`, wherever the grammar puts it
 * (attributes, template interpolations and directives, heredocs, for expressions, the pieces error recovery
 * leaves). A comment, a plain string or a heredoc's literal text holds no variable_expr, so `var.x` there is no
 * reference. One query, compiled once per language, matches inside the parser and hands back each variable followed
 * by an attribute (`var.x`, also `local.y` and `aws_instance.web`, told apart here by the document's text: a query's
 * text predicate would read every name out of the tree, the costliest part); no node is asked for its parent or
 * sibling, which tree-sitter answers by walking down from the root. A `var` with no attribute after it (`"${var.}"`,
 * typed half) is looked for only where the text shows a `var.` no match explained (see danglingSteps).
 */
export function findVariableReferences(root: Node, file: string, document?: { text: string; endIndex: number }): VariableReference[] {
  const source = sourceOf(root, document);
  const found: FoundVars = new Map();
  addMatches(found, attributeQuery(root.tree.language).matches(root), source);
  allSteps(danglingSteps(found, root, source, Number.POSITIVE_INFINITY));
  return referencesOf(found, file, source);
}

/** Past this many characters, variableReferenceSteps searches a piece a range at a time. */
export const referenceRangeLength = 16_384;

/**
 * findVariableReferences a range of the tree at a time, each range a step (steps.ts), for a piece too large to
 * search at once without holding up the requests: the half of a 1 MB file that a brace too many leaves in one node
 * took one query 0.1-0.25 s. Ranges start at a child of a node where no reference can be cut in two (see
 * searchRanges), and a range finds exactly the matches that lie wholly inside it, so the ranges together find
 * what one query over the piece finds.
 */
export function* variableReferenceSteps(root: Node, file: string, document?: { text: string; endIndex: number }, rangeLength = referenceRangeLength): Steps<VariableReference[]> {
  if (root.endIndex - root.startIndex <= rangeLength) return findVariableReferences(root, file, document);
  const query = attributeQuery(root.tree.language);
  const source = sourceOf(root, document);
  const found: FoundVars = new Map();
  for (const range of searchRanges(root, rangeLength)) {
    if (range) addMatches(found, query.matches(root, containedIn(range)), source);
    yield;
  }
  yield* danglingSteps(found, root, source, rangeLength);
  return referencesOf(found, file, source);
}

/**
 * web-tree-sitter 0.27 hands a query's range to tree-sitter as bytes of the text it parsed, which it reads as UTF-16:
 * two per code unit, while its nodes report code units (test/model/steppedExtraction.test.ts notices a change).
 */
function containedIn([start, end]: readonly [number, number]): { startContainingIndex: number; endContainingIndex: number } {
  return { startContainingIndex: start * 2, endContainingIndex: end * 2 };
}

/**
 * Consecutive ranges of `node`'s text, each holding whole children and at most `rangeLength` characters unless one
 * child alone is longer (then that child is split the same way, unless it is a reference's own node), with an
 * undefined now and then while many children are walked (each a pause point). A range never starts at a
 * `get_attr`: its `var` is the child before it, and the two make one reference. Nothing else of a reference starts
 * at a child's start (a `var` and its name are leaves), so no range boundary cuts one.
 */
export function* searchRanges(node: Node, rangeLength: number): Generator<readonly [number, number] | undefined, void, undefined> {
  const cursor = node.walk();
  try {
    if (!cursor.gotoFirstChild()) {
      yield [node.startIndex, node.endIndex];
      return;
    }
    let start = -1;
    let end = -1;
    let walked = 0;
    do {
      const childStart = cursor.startIndex;
      const childEnd = cursor.endIndex;
      const type = cursor.nodeType;
      const boundary = type !== 'get_attr';
      if (start >= 0 && boundary && childEnd - start > rangeLength) {
        yield [start, end];
        start = -1;
      }
      if (start < 0 && childEnd - childStart > rangeLength && boundary && type !== 'variable_expr') {
        yield* searchRanges(cursor.currentNode, rangeLength);
        continue;
      }
      if (start < 0) start = childStart;
      end = childEnd;
      if (++walked % 256 === 0) yield undefined;
    } while (cursor.gotoNextSibling());
    if (start >= 0) yield [start, end];
  } finally {
    cursor.delete();
  }
}

/** Each `var` by where it starts, with the get_attr that follows it when there is one. */
type FoundVars = Map<number, { varNode: Node; attribute?: Node }>;

/**
 * The text the nodes' indices point into: with a document, `root` is one piece of a whole-file tree, and the text is
 * the document's, up to the end of that whole tree (what follows a `var` is read as if the whole tree had been
 * searched); otherwise the root's own text, read once (it starts at root.startIndex, not 0 when only a region of the
 * file was parsed).
 */
interface Source {
  text: string;
  /** The document index `text` starts at: 0 for the document's text, the root's start for the root's own. */
  offset: number;
  /** The document index past which nothing is read. */
  end: number;
}

function sourceOf(root: Node, document: { text: string; endIndex: number } | undefined): Source {
  return document ? { text: document.text, offset: 0, end: document.endIndex } : { text: root.text, offset: root.startIndex, end: root.endIndex };
}

/** Whether `name` (the identifier of a variable_expr) is `var`, read from the text rather than out of the tree. */
function isVar(name: Node, source: Source): boolean {
  const start = name.startIndex;
  return name.endIndex - start === 3 && source.text.startsWith('var', start - source.offset);
}

function addMatches(found: FoundVars, matches: readonly QueryMatch[], source: Source): void {
  for (const match of matches) {
    const { name, variable, attribute } = capturesOf(match);
    if (name && variable && attribute && isVar(name, source)) found.set(variable.startIndex, { varNode: variable, attribute });
  }
}

function capturesOf(match: QueryMatch): { name?: Node; variable?: Node; attribute?: Node } {
  const nodes: { name?: Node; variable?: Node; attribute?: Node } = {};
  for (const capture of match.captures) nodes[capture.name as 'name' | 'variable' | 'attribute'] = capture.node;
  return nodes;
}

/**
 * Past this many unexplained `var.` in the text (a file whose comments or strings quote many), one query for every
 * variable costs less than a search at each: a search confined to three characters takes ~15 µs in the 1 MB file,
 * whole or broken, one query over it 130-200 ms.
 */
export const maxDanglingSearches = 4096;
/** Confined searches per step (about a millisecond). */
const danglingSearchesPerStep = 64;

/**
 * A `var` directly followed by a dot that no get_attr took (`"${var.}"`, `var.` at the end of a line being typed)
 * is left only by error recovery, so it is searched for only at a `var.` of the text that no match explained: most
 * files have none. The text also shows `var.` in comments, strings and longer names; each such place is asked of the
 * tree by a query confined to its three characters, a few dozen per step. Past maxDanglingSearches, one query over
 * every variable, a range at a time (searchRanges; one range when `rangeLength` is infinite).
 */
function* danglingSteps(found: FoundVars, root: Node, source: Source, rangeLength: number): Steps<void> {
  const unexplained = unexplainedVars(found, root, source);
  if (unexplained.length === 0) return;
  const query = bareVariableQuery(root.tree.language);
  if (unexplained.length <= maxDanglingSearches) {
    for (let index = 0; index < unexplained.length; index++) {
      const at = unexplained[index];
      addBareMatches(found, query.matches(root, containedIn([at, at + 3])), source);
      if ((index + 1) % danglingSearchesPerStep === 0) yield;
    }
    return;
  }
  for (const range of searchRanges(root, rangeLength)) {
    if (range) addBareMatches(found, query.matches(root, containedIn(range)), source);
    yield;
  }
}

/** Where the root's text (and the character after it) shows `var.` with no reference found there. */
function unexplainedVars(found: FoundVars, root: Node, source: Source): number[] {
  // The root's own text alone: a piece is not searched to the document's end.
  const start = root.startIndex;
  const text = source.text.slice(start - source.offset, root.endIndex - source.offset + 1);
  const unexplained: number[] = [];
  for (let at = text.indexOf('var.'); at >= 0; at = text.indexOf('var.', at + 1)) {
    if (!found.has(start + at)) unexplained.push(start + at);
  }
  return unexplained;
}

function addBareMatches(found: FoundVars, matches: readonly QueryMatch[], source: Source): void {
  for (const match of matches) {
    const { name, variable } = capturesOf(match);
    if (name && variable && !found.has(variable.startIndex) && isVar(name, source)) found.set(variable.startIndex, { varNode: variable });
  }
}

function referencesOf(found: FoundVars, file: string, source: Source): VariableReference[] {
  const charAfter = (node: Node) => (node.endIndex < source.end ? source.text.charCodeAt(node.endIndex - source.offset) : NaN);
  const references: VariableReference[] = [];
  for (const start of [...found.keys()].sort((x, y) => x - y)) {
    const { varNode, attribute } = found.get(start)!;
    const reference = attribute ? referenceWithAttribute(varNode, attribute, file) : dangling(varNode, charAfter, file);
    if (reference) references.push(reference);
  }
  return references;
}

const attributeQueries = new WeakMap<Language, Query>();
const bareVariableQueries = new WeakMap<Language, Query>();

/** Every variable followed by an attribute: its name, the variable_expr, and the get_attr (in that order). */
function attributeQuery(language: Language): Query {
  return compiled(attributeQueries, language, '((variable_expr (identifier) @name) @variable . (get_attr) @attribute)');
}

/** Every variable: its name and the variable_expr. */
function bareVariableQuery(language: Language): Query {
  return compiled(bareVariableQueries, language, '(variable_expr (identifier) @name) @variable');
}

function compiled(cache: WeakMap<Language, Query>, language: Language, source: string): Query {
  let query = cache.get(language);
  if (!query) {
    // The query belongs to the copy of web-tree-sitter that loaded the language (see treeSitter.ts).
    const { Query } = runtimeOf(language);
    query = new Query(language, source);
    cache.set(language, query);
  }
  return query;
}

function referenceWithAttribute(varNode: Node, attribute: Node, file: string): VariableReference {
  const dot = attribute.firstChild;
  const nameNode = attribute.lastChild;
  // `var.` then a newline: the identifier tree-sitter attaches belongs to the next line (the user is typing).
  const sameLine = dot && nameNode && nameNode.type === 'identifier' && !nameNode.isMissing && nameNode.startPosition.row === dot.startPosition.row;
  if (sameLine) return reference(nameNode.text, file, varNode.startPosition, nameNode.startPosition, nameNode.endPosition);
  const afterDot = (dot ?? varNode).endPosition;
  return reference('', file, varNode.startPosition, afterDot, afterDot);
}

/** `var` with no get_attr after it. Error recovery may leave the dot outside any get_attr (e.g. `"${var.}"`). */
function dangling(varNode: Node, charAfter: (node: Node) => number, file: string): VariableReference | undefined {
  if (charAfter(varNode) !== 46 /* . */) return undefined;
  const afterDot = { row: varNode.endPosition.row, column: varNode.endPosition.column + 1 };
  return reference('', file, varNode.startPosition, afterDot, afterDot);
}

/** Every reference is made here, so all of them share one hidden class (see factShapes.test.ts). */
function reference(name: string, file: string, start: Point, nameStart: Point, end: Point): VariableReference {
  return { name, file, line: start.row, character: start.column, nameLine: nameStart.row, nameCharacter: nameStart.column, endLine: end.row, endCharacter: end.column };
}

/** `var.x` as a whole. */
export function referenceRange(reference: VariableReference): Range {
  return { start: { line: reference.line, character: reference.character }, end: { line: reference.endLine, character: reference.endCharacter } };
}

/** Just `x`, or the empty range right after the dot when the name is missing. */
export function referenceNameRange(reference: VariableReference): Range {
  return { start: { line: reference.nameLine, character: reference.nameCharacter }, end: { line: reference.endLine, character: reference.endCharacter } };
}

/** A copy of `reference` moved by `delta` lines. */
export function movedReference(reference: VariableReference, delta: number): VariableReference {
  const { name, file, line, character, nameLine, nameCharacter, endLine, endCharacter } = reference;
  return { name, file, line: line + delta, character, nameLine: nameLine + delta, nameCharacter, endLine: endLine + delta, endCharacter };
}

/** Moves a reference by `delta` lines, in place. */
export function moveReference(reference: VariableReference, delta: number): void {
  reference.line += delta;
  reference.nameLine += delta;
  reference.endLine += delta;
}
