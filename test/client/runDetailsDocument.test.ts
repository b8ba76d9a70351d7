// A run's details document: opened rendered (the markdown preview), naming its workspace however it was opened.
import './fakes/installFakeVscode';
import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import type { RunDetails } from '../../server/src/protocol';
import { runDetailsRequest, workspaceRequest } from '../../server/src/protocol';
import { runDocumentUri } from '../../client/src/runs/documents/runUris';
import { RunDocuments } from '../../client/src/runs/runDocuments';
import { fakeDeps } from './fakes/fakeDeps';
import { executedCommands } from './fakes/vscode';

const hostname = 'app.terraform.io';
const details: RunDetails = {
  run: { id: 'run-1', status: 'planned', statusLabel: 'Needs confirmation', workspaceId: 'ws-1', message: 'Scale up', actions: { isCancelable: false, isConfirmable: true, isDiscardable: true, isForceCancelable: false } },
};

describe('run details document', () => {
  beforeEach(() => {
    executedCommands.length = 0;
  });

  test('opened from the tree: shown in the markdown preview, with the Workspace line', async () => {
    const { deps, server } = fakeDeps();
    server.on(runDetailsRequest, () => details);
    const documents = new RunDocuments(deps);
    const address = { hostname, runId: 'run-1', kind: 'details' as const };
    await documents.open(address, { organization: 'acme', name: 'demo-app' });
    assert.deepEqual(executedCommands.map(({ command, args }) => [command, String(args[0])]), [['markdown.showPreview', runDocumentUri(address).toString()]]);
    const text = await documents.provideTextDocumentContent(runDocumentUri(address) as never);
    assert.match(text, /^\*\*Workspace:\*\* acme\/demo\\-app {2}$/m);
    assert.equal(server.count(workspaceRequest), 0, 'the workspace given is not read again');
    documents.dispose();
  });

  test('a details document whose workspace was not given (restored after a reload) reads it by the run\'s workspace id', async () => {
    const { deps, server } = fakeDeps();
    server.on(runDetailsRequest, () => details);
    server.on(workspaceRequest, () => ({ id: 'ws-1', name: 'demo-app', organization: 'acme', hostname, permissions: {} }));
    const documents = new RunDocuments(deps);
    const text = await documents.provideTextDocumentContent(runDocumentUri({ hostname, runId: 'run-1', kind: 'details' }) as never);
    assert.match(text, /^\*\*Workspace:\*\* acme\/demo\\-app {2}$/m);
    documents.dispose();
  });
});
