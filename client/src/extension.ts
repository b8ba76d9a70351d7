// First: its top level starts the activation clock before any other module of the bundle is evaluated.
import { activationClock, describeActivation, type ActivationTiming } from './activationTiming';
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { registerAuthentication } from './auth/authentication';
import type { ClientDeps } from './clientDeps';
import { registerCommands } from './commands';
import { Credentials, hostOf } from './credentials';
import { log } from './log';
import type { PlanDecorationsReader } from './planOverlay/planDecorations';
import { registerPlanOverlay } from './planOverlay/registerPlanOverlay';
import { revealSidebarOnFirstLink } from './revealOnFirstLink';
import { RunActivity } from './runActivity';
import { notificationCommands, registerRunNotifications } from './runNotifications';
import { registerRunCommands } from './runs/runCommands';
import { registerRunDocuments, type RunDocuments } from './runs/runDocuments';
import { registerRunsView } from './runs/runsView';
import type { RunsTreeProvider } from './runs/tree/runsTreeProvider';
import { ServerAccess } from './serverAccess';
import { registerChangeRequestsView } from './changeRequests/changeRequestsView';
import type { ChangeRequestsTree } from './changeRequests/changeRequestsTree';
import { registerOrganizationView } from './organization/organizationView';
import type { OrganizationTree } from './organization/organizationTree';
import { registerVariablesView } from './variables/variablesView';
import type { VariablesTree } from './variables/variablesTree';
import { ReadOnlyDocuments } from './views/readOnlyDocuments';
import { ViewWorkspaces } from './views/viewWorkspaces';
import { configuredAddress, userConfiguredAddress } from './settings';
import { trustHostHandler } from './auth/hostTrust';
import { trustHostRequest } from '../../server/src/protocol';
import { ServerEvents } from './serverEvents';
import { registerStatusBar, type StatusBarReader } from './statusBar';
import { trackSignedIn } from './signedInContext';
import { trackLinkedFolder } from './linkedFolderContext';
import { signIn, signOut } from './signIn';
import { syncTokens } from './tokenSync';
import { prompts } from './userPrompts';

activationClock.moduleEvaluated(); // every import above has been evaluated by now

let client: LanguageClient | undefined;
let clientSubscriptions: vscode.Disposable | undefined;

/** What the extension offers to other code (and to its own end-to-end tests). */
export interface ExtensionApi {
  languageClient(): LanguageClient | undefined;
  /** The server's notifications (runs, workspace, sign-in) as events; they survive server restarts. */
  events: ServerEvents;
  /** Views, commands and status items are built from these (tests reach the same objects). */
  deps: ClientDeps;
  /** The Runs view's tree (tests read its items; VS Code has no API to read a tree view). */
  runsView: RunsTreeProvider;
  /** Run details and log documents. */
  runDocuments: RunDocuments;
  /** The Change Requests, Variables and Organization views' trees, and the read-only documents they open (#10). */
  views: { changeRequests: ChangeRequestsTree; variables: VariablesTree; organization: OrganizationTree; documents: ReadOnlyDocuments; logUri: vscode.Uri; log: vscode.LogOutputChannel };
  /**
   * Seams for the end-to-end tests: they answer prompts, intercept notification buttons, read the status bar and the
   * plan marks drawn on editors (VS Code has no API to read decorations).
   */
  seams: { prompts: typeof prompts; notificationCommands: typeof notificationCommands; statusBar: StatusBarReader; planDecorations: PlanDecorationsReader };
  /** How long activation took, as the extension measured it (also logged: "activated in N ms"); see activationTiming.ts. */
  activation(): ActivationTiming | undefined;
}

export async function activate(context: vscode.ExtensionContext): Promise<ExtensionApi> {
  activationClock.activateEntered();
  const credentials = new Credentials(context.secrets, context.globalState);
  const events = new ServerEvents();
  const server = new ServerAccess();
  const activity = new RunActivity();
  context.subscriptions.push(credentials, events, server, activity, log);
  const address = () =>
    configuredAddress((message) => {
      log.warn(message);
      void vscode.window.showWarningMessage(message);
    });

  const deps: ClientDeps = { server, events, credentials, activity, address };

  const stopServer = async () => {
    server.setClient(undefined);
    events.detach();
    clientSubscriptions?.dispose();
    clientSubscriptions = undefined;
    await client?.dispose();
    client = undefined;
  };
  const restartServer = async () => {
    await stopServer();
    try {
      // The user's own address (not a workspace's) and its token go with initialize, so the server's first look at
      // the workspaces is signed in; tokens of other hosts follow right after start. The server asks (hcpTerraform/
      // trustHost, a modal) before a token goes to an address only the workspace names.
      const own = userConfiguredAddress();
      // Loaded here, not imported at the top: vscode-languageclient is the bundle's largest part, and evaluating it
      // belongs to the server's start (after activate() has returned), not to activation (#13: activation ≤ 100 ms).
      const { startLanguageClient } = await import('./languageClient');
      client = await startLanguageClient(
        context,
        { address: own, token: await credentials.get(hostOf(own)), prompts: { trustHost: true, signIn: true, variableValue: true, changeRequestSubject: true, commandOutcomes: true, confirmations: true } },
        () => credentials.knownTokens(),
        deps,
      );
      const trustAnswers = client.onRequest(trustHostRequest, trustHostHandler(context.workspaceState, (...args) => prompts.modal(...args)));
      events.attach(client);
      clientSubscriptions = vscode.Disposable.from(trustAnswers, await syncTokens(client, credentials), trackSignedIn(client, events), trackLinkedFolder(client, events));
      server.setClient(client);
      reportServerStarted();
    } catch (error) {
      reportActivationFailure(error);
    }
  };

  registerCommands(context, {
    // An optional { host } argument signs in to another host than the configured address's (e.g. a cloud block's).
    'hcpTerraform.signIn': (options?: unknown) => signIn(deps, requestedHost(options) ?? hostOf(address())),
    'hcpTerraform.signOut': (options?: unknown) => signOut(deps, requestedHost(options)),
    'hcpTerraform.openSettings': () => vscode.commands.executeCommand('workbench.action.openSettings', 'hcpTerraform'),
    'hcpTerraform.showOutput': () => log.show(),
    'hcpTerraform.restartServer': restartServer,
  });
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('hcpTerraform.address')) void restartServer();
    }),
    { dispose: () => void stopServer() },
  );

  registerAuthentication(context, deps);
  const runsView = registerRunsView(context, deps);
  const runDocuments = registerRunDocuments(context, deps);
  registerRunCommands(context, deps, runsView, runDocuments);
  const planDecorations = registerPlanOverlay(context, deps, runsView);
  const documents = ReadOnlyDocuments.register(context);
  const viewWorkspaces = new ViewWorkspaces(deps, context.workspaceState);
  const views = {
    changeRequests: registerChangeRequestsView(context, deps, viewWorkspaces, documents),
    variables: registerVariablesView(context, deps, viewWorkspaces),
    organization: registerOrganizationView(context, deps, documents),
    documents,
    logUri: context.logUri,
    log,
  };
  const statusBar = registerStatusBar(context, deps);
  registerRunNotifications(context, deps);
  revealSidebarOnFirstLink(context, deps);

  const serverStarting = restartServer();
  // activate() hands control back here (restartServer waits on the server's process from now on).
  activationClock.activateReturned();
  const timing = activationClock.timing();
  if (timing) log.info(describeActivation(timing));
  await serverStarting;
  return { languageClient: () => client, events, deps, runsView, runDocuments, views, seams: { prompts, notificationCommands, statusBar, planDecorations }, activation: () => activationClock.timing() };
}

export async function deactivate(): Promise<void> {
  clientSubscriptions?.dispose();
  await client?.dispose();
  client = undefined;
}

function requestedHost(options: unknown): string | undefined {
  if (typeof options !== 'object' || options === null) return undefined;
  const host = (options as { host?: unknown }).host;
  return typeof host === 'string' && host.length > 0 ? host.toLowerCase() : undefined;
}

/** The first start of the language server, timed from activate()'s entry (a later restart is not re-timed). */
function reportServerStarted(): void {
  if (activationClock.timing()?.serverStartMs !== undefined) return;
  activationClock.serverStarted();
  log.info(`language server started ${activationClock.timing()?.serverStartMs} ms after activation began`);
}

/** The server could not start: say so where the user looks, with the way to the details. */
function reportActivationFailure(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  log.error(`The HCP Terraform language server failed to start: ${message}`);
  void vscode.window
    .showErrorMessage(`HCP Terraform: the language server failed to start (${message}).`, 'Show Output')
    .then((choice) => choice && log.show());
}
