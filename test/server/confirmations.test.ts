// Destructive commands in an editor that runs a code action the moment it is picked (Neovim, Helix, Emacs): the
// server asks with window/showMessageRequest, names what would change, and sends nothing without the button. A
// client that confirms itself (VS Code: prompts.confirmations) is asked nothing. Over a real session on the emulator.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { ErrorCodes, ExecuteCommandRequest, ResponseError } from 'vscode-languageserver-protocol/node';
import type { MessageActionItem, ShowMessageRequestParams } from 'vscode-languageserver-protocol/node';
import { ServiceClient } from '../../server/src/api';
import { startEmulator, type RunningEmulator } from '../../emulator/src/index';
import { confirmRunAction, confirmWithMessageRequest, NotConfirmed } from '../../server/src/commands/confirmations';
import { serverCommand, workspaceChangedNotification } from '../../server/src/protocol';
import type { LinkedFolder, ServerCommandVerb } from '../../server/src/protocol';
import { startSession, type LspSession } from '../helpers/lspSession';

describe('confirming destructive commands', () => {
  let emulator: RunningEmulator;
  let api: ServiceClient;
  let session: LspSession;
  let demoAppId: string;
  /** What the user picks in the next question: the go-ahead button, or "Do nothing". */
  let pick: 'go ahead' | 'do nothing' = 'do nothing';
  const questions: ShowMessageRequestParams[] = [];

  const run = (verb: ServerCommandVerb, args: unknown, on = session) =>
    on.connection.sendRequest(ExecuteCommandRequest.type, { command: serverCommand(verb), arguments: [args] });
  const writes = () => emulator.control.requests().filter((request) => request.method !== 'GET');
  const confirmable = async () => (await api.runs.listForWorkspace(demoAppId, { pageSize: 20 })).items.find((r) => r.attributes.actions?.['is-confirmable'] === true)!;

  before(async () => {
    emulator = await startEmulator({ seed: 'demo', clock: 'manual' });
    api = new ServiceClient({ address: emulator.url, token: emulator.tokens.team });
    demoAppId = (await api.workspaces.getByName('acme-demo', 'demo-app')).workspace.id;
    session = await startSession({
      address: emulator.url,
      token: emulator.tokens.owner,
      answer: {
        'window/showMessageRequest': (params: ShowMessageRequestParams): MessageActionItem | null => {
          questions.push(params);
          return params.actions?.find((action) => (pick === 'go ahead' ? action.title !== 'Do nothing' : action.title === 'Do nothing')) ?? null;
        },
      },
    });
    await session.waitFor<LinkedFolder>(workspaceChangedNotification.method, (folder) => folder.state.kind === 'linked');
  });
  beforeEach(() => {
    questions.length = 0;
  });
  after(async () => {
    await session.close();
    await api.close();
    await emulator.close();
  });

  test('Apply asks first, naming the run, its workspace and what applying does; "Do nothing" sends nothing', async () => {
    const awaiting = await confirmable();
    const before = writes().length;
    pick = 'do nothing';
    assert.equal(await run('applyRun', { runId: awaiting.id }), null);
    assert.equal(questions.length, 1);
    assert.equal(questions[0]!.message, `HCP Terraform: Apply run "Scale to three instances" (${awaiting.id}) in acme-demo/demo-app? Its planned changes will be made to real infrastructure. It is policy checked now.`);
    assert.deepEqual(questions[0]!.actions?.map((action) => action.title), ['Apply', 'Do nothing']);
    assert.equal(writes().length, before, `sent: ${writes().slice(before).map((w) => `${w.method} ${w.path}`).join(', ')}`);
    assert.equal((await api.runs.get(awaiting.id)).run.attributes.actions?.['is-confirmable'], true);
  });

  test('Discard asks too, and its button discards', async () => {
    const awaiting = await confirmable();
    pick = 'go ahead';
    const summary = (await run('discardRun', { runId: awaiting.id })) as { status: string };
    assert.match(questions[0]?.message ?? '', /^HCP Terraform: Discard run "Scale to three instances" .* The plan is thrown away/);
    assert.equal(summary.status, 'discarded');
  });

  test('a destroy plan asks before it is queued; a plain plan asks nothing', async () => {
    pick = 'do nothing';
    const before = writes().length;
    assert.equal(await run('queuePlan', { workspaceId: demoAppId, isDestroy: true, message: 'tear down' }), null);
    assert.equal(questions[0]?.message, 'HCP Terraform: Queue a destroy plan in acme-demo/demo-app? If applied, it destroys every resource of the workspace.');
    assert.equal(writes().length, before, 'a destroy plan was queued without a yes');
    const plain = (await run('queuePlan', { workspaceId: demoAppId, message: 'just a plan' })) as { id: string };
    assert.match(plain.id, /^run-/);
    assert.equal(questions.length, 1, 'a plain plan asked a question');
  });

  test('deleting a workspace variable asks with its key, and keeps it on "Do nothing"', async () => {
    const legacy = (await api.variables.list({ organization: 'acme-demo', workspace: 'demo-app' })).find((variable) => variable.attributes.key === 'legacy_flag')!;
    pick = 'do nothing';
    assert.equal(await run('deleteVariable', { workspaceId: demoAppId, variableId: legacy.id }), null);
    assert.equal(questions[0]?.message, 'HCP Terraform: Delete the variable "legacy_flag" of demo-app? The next run of demo-app no longer gets it. This cannot be undone.');
    assert.ok((await api.variables.list({ organization: 'acme-demo', workspace: 'demo-app' })).some((variable) => variable.id === legacy.id), 'deleted without a yes');
  });

  test('an action the run no longer allows asks nothing: the service\'s refusal says why', async () => {
    const pending = (await api.runs.listForWorkspace(demoAppId, { pageSize: 20 })).items.find((r) => r.attributes.status === 'pending')!;
    await assert.rejects(run('applyRun', { runId: pending.id }), /not waiting for confirmation \(it is pending\)/);
    assert.equal(questions.length, 0);
  });

  test('a client that confirms itself (prompts.confirmations) is asked nothing', async () => {
    const own = await startSession({ address: emulator.url, token: emulator.tokens.owner, initializationOptions: { prompts: { confirmations: true } } });
    try {
      await own.waitFor<LinkedFolder>(workspaceChangedNotification.method, (folder) => folder.state.kind === 'linked');
      const queued = (await run('queuePlan', { workspaceId: demoAppId, isDestroy: true, message: 'asked by the client' }, own)) as { id: string };
      assert.match(queued.id, /^run-/);
      assert.equal(own.received.filter((message) => message.method === 'window/showMessageRequest').length, 0);
    } finally {
      await own.close();
    }
  });
});

describe('asking with window/showMessageRequest', () => {
  const question = { message: 'Apply run "x" (run-1) in acme/web?', detail: 'Its planned changes will be made to real infrastructure.\nIt is planned now.', button: 'Apply' };
  const connection = (answer: () => Promise<MessageActionItem | undefined>) => ({ window: { showWarningMessage: answer } }) as never;
  const logged: string[] = [];

  test('only the button goes ahead: dismissing or "Do nothing" does not', async () => {
    assert.equal(await confirmWithMessageRequest(connection(async () => ({ title: 'Apply' })), (m) => logged.push(m))(question), true);
    assert.equal(await confirmWithMessageRequest(connection(async () => ({ title: 'Do nothing' })), (m) => logged.push(m))(question), false);
    assert.equal(await confirmWithMessageRequest(connection(async () => undefined), (m) => logged.push(m))(question), false);
  });

  test('an editor without window/showMessageRequest is taken at its pick, and the log says so; any other failure sends nothing', async () => {
    const missing = confirmWithMessageRequest(connection(async () => Promise.reject(new ResponseError(ErrorCodes.MethodNotFound, 'Unhandled method'))), (m) => logged.push(m));
    assert.equal(await missing(question), true);
    assert.match(logged.at(-1) ?? '', /cannot ask "Apply run "x" \(run-1\) in acme\/web\?"/);
    const broken = confirmWithMessageRequest(connection(async () => Promise.reject(new ResponseError(ErrorCodes.InternalError, 'boom'))), (m) => logged.push(m));
    await assert.rejects(broken(question), /did not answer "Apply run "x" \(run-1\) in acme\/web\?", so nothing was sent: boom/);
  });
});

describe('the question before a run action, from what can be read', () => {
  const asked: Array<{ message: string; detail: string; button: string }> = [];
  const context = {
    confirm: async (question: { message: string; detail: string; button: string }) => (asked.push(question), false),
    log: () => undefined,
    directory: { byWorkspaceId: () => undefined },
  } as never;
  const unreadable = { client: { runs: { get: async () => Promise.reject(new Error('connection reset')) } } } as never;

  test('a run that cannot be read is still asked about, by its id, and nothing is sent on "no"', async () => {
    asked.length = 0;
    await assert.rejects(confirmRunAction(context, unreadable, 'applyRun', 'run-1'), NotConfirmed);
    assert.deepEqual(asked, [{ message: 'Apply run run-1?', detail: 'The run could not be read, so its state is unknown.', button: 'Apply' }]);
  });

  test('cancel asks nothing and reads nothing: the run stops at its next safe point', async () => {
    asked.length = 0;
    await confirmRunAction(context, unreadable, 'cancelRun', 'run-1');
    assert.equal(asked.length, 0);
  });
});
