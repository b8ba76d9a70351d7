// Wires the pure providers to an LSP connection: completion, hover, code actions, code lenses, and diagnostics
// published per file whenever the host says a folder's model or workspace snapshot changed. Every handler catches
// its own failures (logged, never thrown to the client as a crash) so one bad file cannot take the server down.
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CodeActionKind } from 'vscode-languageserver';
import type { CodeAction, CodeActionParams, Connection, Diagnostic, InitializeParams, ServerCapabilities } from 'vscode-languageserver';
import type { ModuleFolderModel, TerraformParser } from '../model';
import { loadTerraformParser } from '../model';
import { provideCodeLenses } from './codeLens';
import { provideCompletion } from './completion';
import { computeFolderDiagnostics } from './diagnostics';
import { invalidateFolderFacts } from './folderFacts';
import type { FeatureHost, FeatureHostChange, PlanOverlaySource } from './host';
import { provideHover } from './hover';
import { planUnmatchedDiagnostic } from './planDiagnostic';
import { providePlanHover } from './planHover';
import { providePlanInlayHints } from './planInlayHints';
import { providePlanLenses } from './planLens';
import { provideQuickFixes } from './quickFixes';
import type { ClientPrompts } from './commands';
import { readInitializationOptions } from '../config/settings';
import { provideRunActions, runActionKinds } from './runActions';

/** The open documents as the core keeps them (vscode-languageserver's TextDocuments fits). */
export interface OpenDocuments {
  get(uri: string): { getText(): string; version: number } | undefined;
}

export interface LanguageFeaturesOptions {
  /** Current time in ms, for the code lens' "5 minutes ago" (tests pass a fixed clock). */
  now?: () => number;
  /** The Terraform parser (defaults to the process-wide one); diagnostics wait for it. */
  parser?: Promise<TerraformParser>;
  /** The plans shown on the code: lenses, hovers and inlay hints on resource blocks, a diagnostic on the cloud block. */
  plans?: PlanOverlaySource;
}

export interface LanguageFeatures {
  /** Call from the core's onInitialize and merge the result into its capabilities. */
  initialize(params: InitializeParams): ServerCapabilities;
  /** Resolves once every diagnostics recomputation requested so far has been published (for tests and shutdown). */
  settled(): Promise<void>;
  dispose(): void;
}

export function registerLanguageFeatures(connection: Connection, documents: OpenDocuments, host: FeatureHost, options: LanguageFeaturesOptions = {}): LanguageFeatures {
  const now = options.now ?? (() => Date.now());
  const parserReady = options.parser ?? loadTerraformParser();
  let parser: TerraformParser | undefined;
  let codeLensRefresh = false;
  let inlayHintRefresh = false;
  const plans = options.plans;
  let sharedEditRange = false;
  // What the client asks its user for a command's missing argument (initializationOptions.prompts): actions that need
  // one are offered only there, so no editor gets a command it cannot complete.
  let prompts: ClientPrompts = {};
  let disposed = false;
  const log = (what: string, error: unknown) => {
    if (disposed) return; // shutting down: the connection may be gone
    try {
      connection.console.error(`HCP Terraform language features: ${what} failed: ${error instanceof Error ? error.message : String(error)}`);
    } catch {
      // nothing more can be done without a connection
    }
  };
  const send = (uri: string, diagnostics: Diagnostic[]) => {
    connection.sendDiagnostics({ uri, diagnostics }).catch((error: unknown) => log('publishing diagnostics', error));
  };
  parserReady.then((loaded) => (parser = loaded), (error) => log('loading the Terraform parser', error));

  const locate = (uri: string): { model: ModuleFolderModel; file: string } | undefined => {
    const model = host.modelFor(uri);
    if (!model) return undefined;
    try {
      return { model, file: uri.startsWith('file:') ? fileURLToPath(uri) : uri };
    } catch {
      return undefined; // not a local file URI
    }
  };
  const textOf = (uri: string, model: ModuleFolderModel): string | undefined => documents.get(uri)?.getText() ?? model.openText(uri);

  connection.onCompletion(async (params) => {
    try {
      const located = locate(params.textDocument.uri);
      const text = located && textOf(params.textDocument.uri, located.model);
      if (!located || text === undefined) return null;
      return await provideCompletion(
        { model: located.model, snapshot: host.snapshotFor(located.model.folder), file: located.file, text, position: params.position, parser, itemDefaultsEditRange: sharedEditRange },
        host,
      );
    } catch (error) {
      log('completion', error);
      return null;
    }
  });

  connection.onHover((params) => {
    try {
      const located = locate(params.textDocument.uri);
      const variable = located ? provideHover(located.model, host.snapshotFor(located.model.folder), located.file, params.position) : undefined;
      if (variable) return variable;
      // A block header line: what the plan shown on the code does to the block.
      return plans ? providePlanHover(plans.blocksIn(params.textDocument.uri), params.position.line, now()) ?? null : null;
    } catch (error) {
      log('hover', error);
      return null;
    }
  });

  connection.onCodeAction((params) => {
    try {
      return codeActions(params);
    } catch (error) {
      log('code actions', error);
      return null;
    }
  });

  const codeActions = (params: CodeActionParams): CodeAction[] | null => {
    const located = locate(params.textDocument.uri);
    if (!located) return null;
    const { model, file } = located;
    const snapshot = host.snapshotFor(model.folder);
    const text = textOf(params.textDocument.uri, model) ?? '';
    const only = params.context.only;
    const wanted = (kind: string) => !only || only.some((prefix) => kind === prefix || kind.startsWith(`${prefix}.`));
    const actions: CodeAction[] = [];
    if (wanted(CodeActionKind.QuickFix)) actions.push(...provideQuickFixes({ model, snapshot, file, text, diagnostics: params.context.diagnostics, parser, prompts }));
    actions.push(...provideRunActions({ model, snapshot, file, text, range: params.range, prompts }).filter((action) => action.kind !== undefined && wanted(action.kind)));
    return actions;
  };

  connection.onCodeLens((params) => {
    try {
      const located = locate(params.textDocument.uri);
      const cloudLenses = located ? provideCodeLenses(located.model, host.snapshotFor(located.model.folder), located.file, now()) : [];
      return [...cloudLenses, ...(plans ? providePlanLenses(plans.blocksIn(params.textDocument.uri)) : [])];
    } catch (error) {
      log('code lenses', error);
      return null;
    }
  });

  connection.languages.inlayHint.on((params) => {
    try {
      const located = locate(params.textDocument.uri);
      if (!located || !plans) return null;
      const contribution = located.model.index.get(located.file);
      const blocks = contribution?.kind === 'terraform' ? contribution.addresses : [];
      return providePlanInlayHints(plans.blocksIn(params.textDocument.uri), blocks, params.range);
    } catch (error) {
      log('inlay hints', error);
      return null;
    }
  });

  // ---- diagnostics ----

  /** What was last published per folder: uri → serialized diagnostics, so unchanged files are not re-sent. */
  const published = new Map<string, Map<string, string>>();
  const pending = new Set<string>();
  let flushing: Promise<void> = Promise.resolve();

  const publishFolder = (folder: string, model: ModuleFolderModel | undefined, loadedParser: TerraformParser) => {
    const previous = published.get(folder) ?? new Map<string, string>();
    const next = new Map<string, string>();
    const byFile = model ? computeFolderDiagnostics(model, host.snapshotFor(folder), loadedParser) : new Map<string, Diagnostic[]>();
    const overlay = model && plans?.overlayFor(folder);
    const cloudBlock = model?.serviceLink().block;
    const planDiagnostic = overlay && cloudBlock ? planUnmatchedDiagnostic(overlay, cloudBlock.range) : undefined;
    if (planDiagnostic && cloudBlock) byFile.set(cloudBlock.file, [...(byFile.get(cloudBlock.file) ?? []), planDiagnostic]);
    for (const [file, diagnostics] of byFile) {
      const uri = uriOfFile(file);
      const serialized = JSON.stringify(diagnostics);
      next.set(uri, serialized);
      if (previous.get(uri) !== serialized) send(uri, diagnostics);
    }
    for (const uri of previous.keys()) if (!next.has(uri)) send(uri, []);
    if (next.size === 0) published.delete(folder);
    else published.set(folder, next);
  };

  const flush = async () => {
    let loadedParser: TerraformParser;
    try {
      loadedParser = await parserReady;
    } catch {
      pending.clear();
      return; // already logged: without a parser there are no diagnostics
    }
    const folders = [...pending];
    pending.clear();
    if (disposed) return;
    const models = new Map<string, ModuleFolderModel>();
    for (const model of host.models()) models.set(model.folder, model);
    for (const folder of folders) {
      try {
        publishFolder(folder, models.get(folder), loadedParser);
      } catch (error) {
        log(`diagnostics of ${folder}`, error);
      }
    }
  };

  const schedule = (folder: string) => {
    const first = pending.size === 0;
    pending.add(folder);
    // Coalesce a burst of changes (an initial load, a multi-file edit) into one recomputation per folder.
    if (first) flushing = flushing.then(flush);
  };
  const refresh = (what: 'codeLens' | 'inlayHint') => {
    if (what === 'codeLens' ? !codeLensRefresh : !inlayHintRefresh) return;
    void connection.sendRequest(`workspace/${what}/refresh`).catch((error: unknown) => log(`${what} refresh`, error));
  };
  const planSubscription = plans?.onDidChange((folder) => {
    schedule(folder);
    refresh('codeLens');
    refresh('inlayHint');
  });

  const subscription = host.onDidChange((change: FeatureHostChange) => {
    if (change.kind === 'model') {
      const model = [...host.models()].find((candidate) => candidate.folder === change.folder);
      if (model) invalidateFolderFacts(model);
    } else refresh('codeLens');
    schedule(change.folder);
  });

  return {
    initialize(params: InitializeParams): ServerCapabilities {
      const capabilities = params.capabilities;
      codeLensRefresh = capabilities.workspace?.codeLens?.refreshSupport === true;
      inlayHintRefresh = capabilities.workspace?.inlayHint?.refreshSupport === true;
      sharedEditRange = capabilities.textDocument?.completion?.completionList?.itemDefaults?.includes('editRange') === true;
      prompts = readInitializationOptions(params.initializationOptions).value.prompts ?? {};
      return {
        completionProvider: { triggerCharacters: ['.', '"'] },
        hoverProvider: true,
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, CodeActionKind.Source, ...Object.values(runActionKinds)] },
        codeLensProvider: { resolveProvider: false },
        ...(plans ? { inlayHintProvider: true } : {}),
      };
    },
    settled: () => flushing,
    dispose() {
      disposed = true;
      subscription.dispose();
      planSubscription?.dispose();
    },
  };
}

function uriOfFile(file: string): string {
  return pathToFileURL(file).toString();
}
