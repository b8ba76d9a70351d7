// Wires the language server's parts to a connection. The connection is passed in so the same code serves stdio
// and IPC, and time is injectable (ServerOptions.timers) so schedulers can be driven by hand.
//   documents/  the document pipeline (pipeline.ts): text sync + watched files → code models (one per module folder)
//   workspaces/ folder → workspace links, shared workspace knowledge, the run watcher, view requests
//   commands/   workspace/executeCommand handlers;  upload/  plan local changes
//   features/   completion, hover, diagnostics, code actions, code lens (lsp-features), fed through FeatureHost
import { pathToFileURL, fileURLToPath } from 'node:url';
import type { ClientCapabilities, Connection, InitializeParams, InitializeResult } from 'vscode-languageserver';
import { MessageType, TextDocumentSyncKind } from 'vscode-languageserver';
import { showNotice } from './connection/notices';
import { AddressTrust } from './auth/addressTrust';
import { comparableHost, TokenResolver } from './auth/tokens';
import { askToTrustHost } from './auth/trustPrompt';
import { SignInNotices } from './auth/signInNotices';
import { registerCommands, serverCommandNames } from './commands';
import { outcomeSentence } from './commands/outcomeNotices';
import { confirmWithMessageRequest } from './commands/confirmations';
import { linkedFolderSummary } from './workspaces/linkedFolderSummary';
import type { CoreContext } from './commands/context';
import { defaultAddress, hostOfAddress, normalizeAddress, readInitializationOptions, readSettings } from './config/settings';
import type { ParsedSettings } from './config/settings';
import { createDocumentPipeline } from './documents/pipeline';
import { registerFileWatchers, watchedFileGlobs } from './documents/fileWatchers';
import { DiskWatcher } from './documents/diskWatcher';
import { loadTerraformParser } from './model';
import type { TerraformParser } from './model';
import type { InitializationOptions, LinkedFolder, RunsChangedParams } from './protocol';
import {
  linkedWorkspacesRequest,
  planOverlayChangedNotification,
  runsChangedNotification,
  serverStatusRequest,
  setTokenNotification,
  signInNeededNotification,
  workspaceChangedNotification,
} from './protocol';
import { registerLanguageFeatures } from './features';
import { serverVersion } from './version';
import { WorkspaceDirectory } from './workspaces/directory';
import { FolderLinks } from './workspaces/folderLinks';
import { ServiceHosts } from './workspaces/hosts';
import { summarizeRun } from './workspaces/runSummary';
import { RunWatcher } from './workspaces/runWatcher';
import type { Timers } from './workspaces/timers';
import { realTimers } from './workspaces/timers';
import { registerViewRequests } from './workspaces/viewRequests';
import { registerAccountRequests } from './workspaces/accountRequests';
import { registerFolderRequests } from './workspaces/folderRequests';
import { PlanOverlays } from './plans/planOverlays';
import { registerPlanRequests } from './plans/planRequests';
import { WaitNotices } from './workspaces/waitNotices';
import { LinkProblemNotices } from './workspaces/linkProblemNotices';
import { OverrideNotFoundNotices } from './workspaces/overrideNotFoundNotices';

export interface ServerOptions {
  timers?: Timers;
  /** The environment for TF_TOKEN_*, TF_CLOUD_* and HOME (default: process.env). */
  environment?: Readonly<Record<string, string | undefined>>;
  /** Sends what `send` writes in one write, where the transport allows (stdio): for bursts of notifications. */
  sendTogether?(send: () => void): void;
}

export function startServer(connection: Connection, options: ServerOptions = {}): void {
  const timers = options.timers ?? realTimers;
  const environment = options.environment ?? process.env;
  const log = (message: string) => connection.console.log(message);
  const warn = (message: string) => connection.console.warn(message);
  // A setting or initialization option the server had to ignore changes what the user gets (a bad address means
  // the default service): told in every editor, once per sentence, since settings are read again on each change.
  const toldSettings = new Set<string>();
  const settingIgnored = (message: string) => {
    warn(message);
    if (toldSettings.has(message)) return;
    toldSettings.add(message);
    showNotice(connection, MessageType.Warning, `HCP Terraform: ${message}`);
  };

  let initOptions: InitializationOptions = {};
  let capabilities: ClientCapabilities = {};
  let pushedSettings: unknown;
  let roots: string[] = [];
  /** The server's own watch of the folders, when the client cannot watch files for it. */
  let diskWatcher: DiskWatcher | undefined;

  // A credentials file that cannot be used is told, not only logged: the sign-in advice would otherwise send the
  // user to `terraform login`, which writes to that same file.
  const tokens = new TokenResolver({ environment, onWarning: (message) => settingIgnored(message) });
  // Hosts named by the workspace, not the user, are asked about before their token goes there (reads initOptions late).
  const trust: AddressTrust = new AddressTrust({
    ask: (host): Promise<boolean> => askToTrustHost(connection, host, hosts.addressFor(host), initOptions.prompts?.trustHost === true),
    onDecided: (host) => {
      hosts.refreshAll();
      directory.reloadHost(host);
    },
    log,
  });
  // #14 item 9: a request that waits (rate limit, retry) says so, in every LSP client, instead of a silent spinner.
  const waitNotices = new WaitNotices({ timers, show: (message) => showNotice(connection, MessageType.Info, message) });
  const hosts: ServiceHosts = new ServiceHosts({ tokens, timers, trust, onWait: (host, wait) => waitNotices.notice(host, wait) });
  let parser: TerraformParser | undefined;
  const parserLoading = loadTerraformParser().then((loaded) => (parser = loaded));
  parserLoading.catch((error: unknown) => {
    showNotice(connection, MessageType.Error, `HCP Terraform: the Terraform parser could not load, so files are not analysed (${error instanceof Error ? error.message : String(error)}). Reinstall the extension.`);
  });
  const documents = createDocumentPipeline(connection, { parser: parserLoading, environment, log });
  const folders = documents.folders;

  const signInAsked = new Set<string>();
  const signInNotices = new SignInNotices({
    show: (message) => showNotice(connection, MessageType.Warning, message),
    enabled: () => initOptions.prompts?.signIn !== true,
    token: (host) => tokens.resolve(host),
    credentialsFile: () => tokens.credentialsFilePath(),
    credentialsFileProblem: () => tokens.credentialsFileProblem(),
  });
  const pendingFolderNotices = new Set<string>();
  let links: FolderLinks;

  const watcher = new RunWatcher({
    timers,
    clientFor: (hostname) => hosts.clientFor(hostname),
    onRuns: (hostname, workspaceId, runs, changed, fromList) => {
      directory.recordRuns(hostname, workspaceId, runs, fromList);
      if (changed.length === 0) return;
      const params: RunsChangedParams = { hostname, workspaceId, runs: changed.map((run) => summarizeRun(run)) };
      void connection.sendNotification(runsChangedNotification, params);
      // A run that moved may have changed the workspace's current run.
      for (const knowledge of directory.all()) {
        if (knowledge.workspaceId === workspaceId && knowledge.target.hostname === hostname) void directory.refreshCurrentRun(knowledge);
      }
    },
    onProblem: log,
  });

  const linkProblems = new LinkProblemNotices(
    (message) => {
      log(message);
      showNotice(connection, MessageType.Warning, message);
    },
    (host) => directory.all().filter((knowledge) => knowledge.target.hostname === host).map((knowledge) => knowledge.target.name),
  );
  const directory: WorkspaceDirectory = new WorkspaceDirectory({
    hosts,
    watcher,
    timers,
    log,
    onChanged: (knowledge) => links.knowledgeChanged(knowledge),
    onLinkProblem: (knowledge, problem) => linkProblems.update(knowledge.key, knowledge.target.hostname, problem),
    onSignInNeeded: (hostname, reason) => {
      const key = `${hostname}\u0000${reason}`;
      if (signInAsked.has(key)) return;
      signInAsked.add(key);
      log(reason);
      void connection.sendNotification(signInNeededNotification, { hostname, address: hosts.addressFor(hostname), reason });
      signInNotices.signInNeeded(hostname);
    },
  });

  links = new FolderLinks(folders, directory, hosts, timers, (folder) => {
    // Coalesced: several knowledge changes in one turn give one notification per folder.
    if (pendingFolderNotices.size === 0) queueMicrotask(flushFolderNotices);
    pendingFolderNotices.add(folder);
  });
  // A name from the setting has no line in the code for the not-found diagnostic: told as a notice instead.
  const overrideNotFound = new OverrideNotFoundNotices((message) => showNotice(connection, MessageType.Warning, message));
  const flushFolderNotices = () => {
    const changed = [...pendingFolderNotices];
    pendingFolderNotices.clear();
    for (const folder of changed) {
      const described = describeFolder(folder);
      if (!described) continue;
      void connection.sendNotification(workspaceChangedNotification, described);
      const link = links.linkOf(folder)?.link;
      if (link) overrideNotFound.update(link, described.state);
    }
  };

  folders.onDidChange((event) => {
    if (event.kind === 'added') links.modelChanged(event.model, undefined, true);
    else if (event.kind === 'changed') links.modelChanged(event.model, event.change.files);
    else links.modelRemoved(event.model.folder);
  });

  const plans = new PlanOverlays({ links, models: folders, clientFor: (hostname) => hosts.clientFor(hostname), timers, log });
  plans.onDidChange((folder) => {
    const overlay = plans.overlayFor(folder) ?? null;
    void connection.sendNotification(planOverlayChangedNotification, { folderUri: pathToFileURL(folder).href, overlay });
  });

  const askBeforeDestructive = confirmWithMessageRequest(connection, log);
  const context: CoreContext = {
    connection,
    hosts,
    directory,
    watcher,
    folders,
    plans,
    parser: () => parser,
    supportsWorkDoneProgress: () => capabilities.window?.workDoneProgress === true,
    // Read at each command: the initialization options arrive after this context is made.
    get confirm() {
      return initOptions.prompts?.confirmations === true ? undefined : askBeforeDestructive;
    },
    log,
  };

  const describeFolder = (folder: string) => linkedFolderSummary(links, hosts, folder);

  // ---- configuration ----

  const applySettings = (settingsByRoot: Array<{ root: string | undefined; settings: ParsedSettings }>) => {
    const address = settingsByRoot.find((entry) => entry.settings.address)?.settings.address ?? initOptions.address;
    hosts.setCaFile(settingsByRoot.find((entry) => entry.settings.caFile)?.settings.caFile, settingIgnored);
    const addressChanged = hosts.setConfiguredAddress(address);
    plans.setEnabled(settingsByRoot.find((entry) => entry.settings.planOverlayEnabled !== undefined)?.settings.planOverlayEnabled ?? true);
    documents.setMaxFileSize(settingsByRoot.find((entry) => entry.settings.maxFileSize !== undefined)?.settings.maxFileSize);
    for (const { root, settings } of settingsByRoot) if (root) folders.setOverride(root, settings.override);
    if (addressChanged) {
      links.relinkAll();
      for (const knowledge of directory.all()) void directory.reload(knowledge);
    }
  };

  const readConfiguration = async (): Promise<void> => {
    const scopes: Array<string | undefined> = roots.length > 0 ? roots : [undefined];
    let raw: unknown[];
    if (capabilities.workspace?.configuration) {
      try {
        raw = await connection.workspace.getConfiguration(scopes.map((root) => ({ section: 'hcpTerraform', ...(root ? { scopeUri: pathToFileURL(root).href } : {}) })));
      } catch (error) {
        warn(`Could not read the hcpTerraform settings: ${error instanceof Error ? error.message : String(error)}`);
        raw = scopes.map(() => pushedSettings);
      }
    } else raw = scopes.map(() => pushedSettings);
    applySettings(
      scopes.map((root, index) => {
        const parsed = readSettings(raw[index]);
        for (const warning of parsed.warnings) settingIgnored(warning);
        return { root, settings: parsed.value };
      }),
    );
  };

  // ---- lifecycle ----

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    const parsed = readInitializationOptions(params.initializationOptions);
    initOptions = parsed.value;
    for (const warning of parsed.warnings) queueMicrotask(() => settingIgnored(warning));
    capabilities = params.capabilities ?? {};
    roots = rootsOf(params);
    // Files the editor opens before these are loaded take no override until every module call in them is known.
    folders.expectRoots(roots);
    hosts.setConfiguredAddress(initOptions.address);
    trust.trust(hostOfAddress(defaultAddress));
    trust.trust(hostOfAddress(initOptions.address ?? defaultAddress));
    if (initOptions.token) tokens.setClientToken(hostOfAddress(initOptions.address ?? defaultAddress), initOptions.token);
    const featureCapabilities = features.initialize(params);
    return {
      capabilities: {
        ...featureCapabilities,
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
        executeCommandProvider: { commands: serverCommandNames },
        workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
      },
      serverInfo: { name: 'hcp-terraform-language-server', version: serverVersion },
    };
  });

  connection.onInitialized(async () => {
    if (capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration) {
      registerFileWatchers(connection).catch((error: unknown) => warn(`Could not watch files: ${error instanceof Error ? error.message : String(error)}`));
    } else {
      // The client cannot watch for the server: it watches the folders itself, or files changed outside the
      // editor would never be seen (Neovim 0.7; 0.10+ on Linux by default).
      diskWatcher = new DiskWatcher({
        globs: watchedFileGlobs,
        timers,
        onChanges: (changes) => openDocuments.watchedFilesChanged(changes),
        knownFilesUnder: (folder) => folders.knownFilesUnder(folder),
        log: warn,
        tell: (message) => showNotice(connection, MessageType.Warning, message),
      });
      for (const root of roots) diskWatcher.add(root);
    }
    if (capabilities.workspace?.workspaceFolders) {
      connection.workspace.onDidChangeWorkspaceFolders(async (event) => {
        for (const removed of event.removed) {
          const root = localPath(removed.uri);
          if (!root) continue;
          roots = roots.filter((known) => known !== root);
          diskWatcher?.remove(root);
          folders.removeRoot(root);
        }
        for (const added of event.added) {
          const root = localPath(added.uri);
          if (!root) continue;
          roots.push(root);
          diskWatcher?.add(root);
          await folders.addRoot(root);
        }
        await readConfiguration();
      });
    }
    await readConfiguration();
    await Promise.all(roots.map((root) => folders.addRoot(root)));
  });

  connection.onDidChangeConfiguration(async (params) => {
    const settings = (params?.settings as { hcpTerraform?: unknown } | undefined)?.hcpTerraform;
    if (settings !== undefined) pushedSettings = settings;
    await readConfiguration();
  });

  connection.onNotification(setTokenNotification, (params) => {
    // A client may send an address instead of a host name: its host is what the token belongs to.
    const given = typeof params?.hostname === 'string' ? params.hostname.trim() : '';
    const hostname = !given ? hosts.configuredHost : given.includes('://') ? (normalizeAddress(given) ? hostOfAddress(given) : given) : given.toLowerCase();
    if (params?.token !== null && typeof params?.token !== 'string') {
      warn('hcpTerraform/setToken needs {"hostname"?: "...", "token": "..." | null}; ignored.');
      return;
    }
    // A host the user signs in to is one they named.
    if (params.token) trust.trust(comparableHost(hostname));
    if (!tokens.setClientToken(hostname, params.token)) return;
    for (const key of [...signInAsked]) if (key.startsWith(`${hostname}\u0000`)) signInAsked.delete(key);
    signInNotices.reset(hostname);
    hosts.refreshAll();
    directory.reloadHost(hostname);
    watcher.resume(hostname);
  });

  connection.onRequest(serverStatusRequest, () => ({
    version: serverVersion,
    address: hosts.configuredAddress,
    signedIn: hosts.isSignedIn(hosts.configuredHost),
  }));

  connection.onRequest(linkedWorkspacesRequest, () =>
    folders
      .all()
      .map((model) => describeFolder(model.folder))
      .filter((folder): folder is LinkedFolder => folder !== undefined)
      .sort((a, b) => a.folderUri.localeCompare(b.folderUri)),
  );

  const openDocuments = documents.registerSync((file) => plans.fileEdited(file));
  // The language features (lsp-features) read models and snapshots through FolderLinks, the FeatureHost.
  const features = registerLanguageFeatures(connection, openDocuments, links, { parser: parserLoading, now: () => timers.now(), plans, sendTogether: options.sendTogether });
  registerCommands(connection, context, (verb, result) => {
    if (initOptions.prompts?.commandOutcomes === true) return;
    const sentence = outcomeSentence(verb, result as never);
    if (sentence) showNotice(connection, MessageType.Info, sentence);
  });
  registerViewRequests(connection, context);
  registerAccountRequests(connection, context);
  registerFolderRequests(connection, context);
  registerPlanRequests(connection, context);

  connection.onShutdown(async () => {
    diskWatcher?.dispose();
    features.dispose();
    plans.dispose();
    watcher.dispose();
    directory.dispose();
    links.dispose();
    documents.dispose();
    folders.dispose();
    await hosts.dispose();
  });
}

/**
 * The local path of a workspace folder URI; undefined for what the server cannot read from disk (another scheme,
 * or a file URI with a remote host, which fileURLToPath rejects) instead of an exception in a handler.
 */
function localPath(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

/** The workspace folders (or the legacy root) as absolute paths. */
function rootsOf(params: InitializeParams): string[] {
  const uris = params.workspaceFolders?.map((folder) => folder.uri) ?? (params.rootUri ? [params.rootUri] : []);
  const paths = uris.map(localPath).filter((p): p is string => p !== undefined);
  if (paths.length === 0 && params.rootPath) paths.push(params.rootPath);
  return paths;
}
