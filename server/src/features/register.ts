// Wires the pure providers to an LSP connection: completion, hover, code actions, code lenses, and diagnostics
// published per file whenever the host says a folder's model or workspace snapshot changed. Every handler catches
// its own failures (logged, never thrown to the client as a crash) so one bad file cannot take the server down.
import { localPathOf } from '../model/filePaths';
import { CodeActionKind } from 'vscode-languageserver';
import type { CodeAction, CodeActionParams, Connection, Diagnostic, InitializeParams, ServerCapabilities } from 'vscode-languageserver';
import type { ModuleFolderModel, TerraformParser, TextLines } from '../model';
import { loadTerraformParser } from '../model';
import { provideCodeLenses } from './codeLens';
import { provideCompletion, resolveCompletionItem } from './completion';
import type { VariableItemData } from './completionRanking';
import { computeFolderDiagnostics } from './diagnostics';
import { DiagnosticsPublisher } from './diagnosticsPublisher';
import { invalidateFolderFacts } from './folderFacts';
import type { FeatureHost, FeatureHostChange, PlanOverlaySource } from './host';
import { provideHover } from './hover';
import { planUnmatchedDiagnostic } from './planDiagnostic';
import { providePlanHover } from './planHover';
import { providePlanInlayHints } from './planInlayHints';
import { providePlanLenses } from './planLens';
import { clientCanCreateFiles, provideQuickFixes } from './quickFixes';
import type { ClientPrompts } from './commands';
import { readInitializationOptions } from '../config/settings';
import { provideRunActions, runActionKinds } from './runActions';

/** The open documents as the core keeps them (vscode-languageserver's TextDocuments fits). */
export interface OpenDocuments {
  /** With `offsetAt`/`positionAt`/`lineCount` (a TextDocument), requests use the document's line offsets. */
  get(uri: string): ({ getText(): string; version: number } & Partial<TextLines>) | undefined;
  /** The version the code model has applied, when it lags behind `get` (diagnostics are labelled with it). */
  modelVersion?(uri: string): number | undefined;
  /** Resolves once the model has the document's latest text (up to `line`, when given). */
  whenCurrent?(uri: string, line?: number): Promise<void>;
}

export interface LanguageFeaturesOptions {
  /** Current time in ms, for the code lens' "5 minutes ago" (tests pass a fixed clock). */
  now?: () => number;
  /** The Terraform parser (defaults to the process-wide one); diagnostics wait for it. */
  parser?: Promise<TerraformParser>;
  /** The plans shown on the code: lenses, hovers and inlay hints on resource blocks, a diagnostic on the cloud block. */
  plans?: PlanOverlaySource;
  /** Sends what `send` writes in one write, where the transport allows: a folder's diagnostics go out together. */
  sendTogether?(send: () => void): void;
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
  let sharedData = false;
  // What the client asks its user for a command's missing argument (initializationOptions.prompts): actions that need
  // one are offered only there, so no editor gets a command it cannot complete.
  let prompts: ClientPrompts = {};
  /** Whether the client can apply a workspace edit that creates a file (variables.tf, terraform.tfvars). */
  let canCreateFiles = true;
  let disposed = false;
  const log = (what: string, error: unknown) => {
    if (disposed) return; // shutting down: the connection may be gone
    try {
      connection.console.error(`HCP Terraform language features: ${what} failed: ${error instanceof Error ? error.message : String(error)}`);
    } catch {
      // nothing more can be done without a connection
    }
  };
  parserReady.then((loaded) => (parser = loaded), (error) => log('loading the Terraform parser', error));

  const locate = (uri: string): { model: ModuleFolderModel; file: string } | undefined => {
    const model = host.modelFor(uri);
    if (!model) return undefined;
    try {
      return { model, file: uri.startsWith('file:') ? localPathOf(uri) : uri };
    } catch {
      return undefined; // not a local file URI
    }
  };
  const textOf = (uri: string, model: ModuleFolderModel): string | undefined => documents.get(uri)?.getText() ?? model.openText(uri);
  /** The open document's own line offsets, when it keeps them and `text` is its text (they follow each edit). */
  const linesOf = (uri: string, text: string): TextLines | undefined => {
    const document = documents.get(uri);
    return document?.offsetAt && document.positionAt && document.getText() === text ? (document as TextLines) : undefined;
  };

  connection.onCompletion(async (params) => {
    try {
      const located = locate(params.textDocument.uri);
      const text = located && textOf(params.textDocument.uri, located.model);
      if (!located || text === undefined) return null;
      return await provideCompletion(
        { model: located.model, snapshot: host.snapshotFor(located.model.folder), file: located.file, text, lines: linesOf(params.textDocument.uri, text), position: params.position, parser, itemDefaultsEditRange: sharedEditRange, itemDefaultsData: sharedData },
        host,
      );
    } catch (error) {
      log('completion', error);
      return null;
    }
  });

  connection.onCompletionResolve((item) => {
    try {
      const folder = (item.data as Partial<VariableItemData> | undefined)?.folder;
      const model = typeof folder === 'string' ? [...host.models()].find((candidate) => candidate.folder === folder) : undefined;
      return resolveCompletionItem(item, model, model ? host.snapshotFor(model.folder) : undefined);
    } catch (error) {
      log('completion resolve', error);
      return item;
    }
  });

  connection.onHover(async (params) => {
    try {
      await documents.whenCurrent?.(params.textDocument.uri, params.position.line);
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

  connection.onCodeAction(async (params) => {
    try {
      await documents.whenCurrent?.(params.textDocument.uri, params.range.end.line);
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
    if (wanted(CodeActionKind.QuickFix)) actions.push(...provideQuickFixes({ model, snapshot, file, text, diagnostics: params.context.diagnostics, parser, prompts, canCreateFiles }));
    actions.push(...provideRunActions({ model, snapshot, file, text, lines: linesOf(params.textDocument.uri, text), range: params.range, prompts }).filter((action) => action.kind !== undefined && wanted(action.kind)));
    return actions;
  };

  connection.onCodeLens(async (params) => {
    try {
      await documents.whenCurrent?.(params.textDocument.uri);
      const located = locate(params.textDocument.uri);
      const cloudLenses = located ? provideCodeLenses(located.model, host.snapshotFor(located.model.folder), located.file, now()) : [];
      return [...cloudLenses, ...(plans ? providePlanLenses(plans.blocksIn(params.textDocument.uri)) : [])];
    } catch (error) {
      log('code lenses', error);
      return null;
    }
  });

  connection.languages.inlayHint.on(async (params) => {
    try {
      await documents.whenCurrent?.(params.textDocument.uri, params.range.end.line);
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

  const diagnostics = new DiagnosticsPublisher({
    parser: parserReady,
    models: () => host.models(),
    versionOf: (uri) => (documents.modelVersion ? documents.modelVersion(uri) : documents.get(uri)?.version),
    log,
    sendTogether: options.sendTogether,
    send: (uri, list, version) => {
      connection.sendDiagnostics({ uri, diagnostics: list, ...(version !== undefined ? { version } : {}) }).catch((error: unknown) => log('publishing diagnostics', error));
    },
    compute: (folder, model, loadedParser) => {
      const byFile = model ? computeFolderDiagnostics(model, host.snapshotFor(folder), loadedParser) : new Map<string, Diagnostic[]>();
      const overlay = model && plans?.overlayFor(folder);
      const cloudBlock = model?.serviceLink().block;
      const planDiagnostic = overlay && cloudBlock ? planUnmatchedDiagnostic(overlay, cloudBlock.range) : undefined;
      if (planDiagnostic && cloudBlock) byFile.set(cloudBlock.file, [...(byFile.get(cloudBlock.file) ?? []), planDiagnostic]);
      return byFile;
    },
  });
  const schedule = (folder: string) => diagnostics.schedule(folder);
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
      sharedData = capabilities.textDocument?.completion?.completionList?.itemDefaults?.includes('data') === true;
      prompts = readInitializationOptions(params.initializationOptions).value.prompts ?? {};
      canCreateFiles = clientCanCreateFiles(capabilities);
      return {
        completionProvider: { triggerCharacters: ['.', '"'], resolveProvider: true },
        hoverProvider: true,
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, CodeActionKind.Source, ...Object.values(runActionKinds)] },
        codeLensProvider: { resolveProvider: false },
        ...(plans ? { inlayHintProvider: true } : {}),
      };
    },
    settled: () => diagnostics.settled(),
    dispose() {
      disposed = true;
      diagnostics.dispose();
      subscription.dispose();
      planSubscription?.dispose();
    },
  };
}
