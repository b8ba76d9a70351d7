/**
 * The boundary between the server core (lsp-core: documents, config, auth, workspace knowledge, commands) and the
 * language features (lsp-features: completion, hover, diagnostics, code actions, code lens). Plain data only: the
 * features never call the service; the core never computes LSP results.
 *
 * lsp-core wires the features with ONE call from server.ts, at startup (before connection.listen()):
 *
 *   import { registerLanguageFeatures } from './features';
 *   const features = registerLanguageFeatures(connection, documents, host);
 *   connection.onInitialize((params) => ({ capabilities: { ...yours, ...features.initialize(params) }, ... }));
 *
 * Signature (server/src/features/index.ts → register.ts):
 *   registerLanguageFeatures(connection: Connection, documents: OpenDocuments, host: FeatureHost,
 *                            options?: { now?: () => number; parser?: Promise<TerraformParser> }): LanguageFeatures
 *   interface OpenDocuments { get(uri: string): { getText(): string; version: number } | undefined }  // TextDocuments fits
 *   interface LanguageFeatures {
 *     initialize(params: InitializeParams): ServerCapabilities;   // completion/hover/codeAction/codeLens providers
 *     settled(): Promise<void>;                                   // diagnostics requested so far are published
 *     dispose(): void;
 *   }
 * It registers onCompletion, onHover, onCodeAction, onCodeLens and publishes diagnostics for the files of a folder
 * whenever the host fires a change for it (fire one `model` change per folder after its first load). It does NOT
 * register text document sync, executeCommand, onInitialize or watched files: those are lsp-core's. Commands it puts
 * in code actions/lenses are `hcpTerraform.server.<verb>` with ONE object argument each, typed by the protocol's
 * `ServerCommandArguments`.
 *
 * Snapshots are immutable: publish a NEW object on every change (features cache per-snapshot indexes by identity).
 * Reusing unchanged SnapshotVariable objects across snapshots helps: parsed HCL values are cached per object.
 */
import type { ModuleFolderModel, ServiceLink } from '../model';
import type { LinkedWorkspaceState, PlanBlockVerdict, PlanOverlay, RunActionsSummary, RunSummary, VariableSummary } from '../protocol';

/** The workspace and its state are the protocol's own types: one declaration serves the client's views and the features. */
export type { LinkedWorkspace, LinkedWorkspaceState as WorkspaceState } from '../protocol';

/** A workspace variable as the protocol gives it to views: the core never puts a sensitive value in it. */
export type SnapshotVariable = VariableSummary;

/** The run's `actions` flags (spec §2.3, notes §4.3-4.4). Missing flags are false. */
export type RunActionFlags = RunActionsSummary;

/** What features need of a run: the protocol's RunSummary, reduced (statuses the service adds pass through). */
export type SnapshotRun = Pick<
  RunSummary,
  'id' | 'status' | 'createdAt' | 'statusChangedAt' | 'message' | 'isDestroy' | 'planOnly' | 'refreshOnly' | 'actions' | 'forceCancelAvailableAt'
>;

export interface WorkspaceRuns {
  /** The workspace's current run (relationship `current-run`), whatever its status. */
  current?: SnapshotRun;
  /** A run paused for confirmation (is-confirmable or is-discardable), if any. */
  awaitingConfirmation?: SnapshotRun;
  /** A run that is planning/applying (is-cancelable), if any. */
  active?: SnapshotRun;
}

/** The organization's subscription feature set, reduced to what features may show. */
export interface FeatureSetSummary {
  name?: string;
  identifier?: string;
  /** Boolean entitlements by their wire name, e.g. `cost-estimation`, `policy-enforcement`. */
  flags: Readonly<Record<string, boolean>>;
}

export interface WorkspaceSnapshot {
  /** The resolved link of the folder (the model's serviceLink() at the time, with the configured address applied). */
  link: ServiceLink;
  workspace: LinkedWorkspaceState;
  /** Undefined while unknown (loading, signed out, error). An empty array means "known: none". */
  variables?: readonly SnapshotVariable[];
  /** Undefined while unknown. */
  runs?: WorkspaceRuns;
  /** Undefined while unknown; null when the service has none (enterprise: 404 is normal). */
  featureSet?: FeatureSetSummary | null;
}

export interface FeatureHostChange {
  /** Absolute path of the module folder (ModuleFolderModel.folder). */
  folder: string;
  /** `model`: files of the folder changed (`files` says which, when known); `snapshot`: the workspace knowledge changed. */
  kind: 'model' | 'snapshot';
  files?: readonly string[];
}

export interface Disposable {
  dispose(): void;
}

/** What the core gives the features. All methods are cheap and synchronous except the name lookups. */
export interface FeatureHost {
  /** The module folder model of a document (file URI or absolute path); undefined when it belongs to none. */
  modelFor(uriOrPath: string): ModuleFolderModel | undefined;
  /** Every module folder model currently known (for publishing diagnostics of files that are not open). */
  models(): Iterable<ModuleFolderModel>;
  /** The current snapshot of a folder (absolute path); undefined when the core has none yet (treated as loading). */
  snapshotFor(folder: string): WorkspaceSnapshot | undefined;
  /**
   * Organization names visible with the token of `hostname`, for completion in the cloud block. Fetched lazily by the
   * core (cached; never more than one request in flight). Rejects or resolves [] when signed out. The core resolves
   * at once with what it knows (completion never waits for the network) and reads the rest in the background.
   * The organizations other folders on the host name are offered too, not `askingFolder`'s own (what is being typed).
   */
  organizationNames(hostname: string, askingFolder?: string): Promise<readonly string[]>;
  /** Workspace names of an organization, same rules. */
  workspaceNames(hostname: string, organization: string): Promise<readonly string[]>;
  /** Whether a read of those names is under way (the completion list is then incomplete: the editor asks again). */
  namesPending?(hostname: string, organization?: string): boolean;
  /** The host of the configured address: a cloud block that names no hostname uses it. */
  configuredHostname?(): string;
  /** Fired after a folder's model or snapshot changed. */
  onDidChange(listener: (change: FeatureHostChange) => void): Disposable;
}


/**
 * The plans put on the code (server/src/plans/planOverlays.ts), as the features read them: plain protocol data,
 * looked up by folder or by file. Optional for the features: without it there are no plan lenses, hovers or hints.
 */
export interface PlanOverlaySource {
  /** The overlay of a linked module folder (absolute path). */
  overlayFor(folder: string): PlanOverlay | undefined;
  overlays(): Iterable<PlanOverlay>;
  /** Every verdict on a block of this file (a local module's file can carry verdicts of the folders that call it). */
  blocksIn(uri: string): Array<{ overlay: PlanOverlay; block: PlanBlockVerdict }>;
  /** Fired with the linked folder whose overlay appeared, changed or went away. */
  onDidChange(listener: (folder: string) => void): Disposable;
}
