// The Change Requests view follows the signed-in account: another token's lists are read again.
import './fakes/installFakeVscode';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ChangeRequestsTree } from '../../client/src/changeRequests/changeRequestsTree';
import { ViewWorkspaces } from '../../client/src/views/viewWorkspaces';
import { fakeDeps, nextEvent } from './fakes/fakeDeps';

test('signing in with another token (or out) redraws the Change Requests view from new reads', async () => {
  const { deps, credentialsChanged } = fakeDeps();
  const memento = { get: <T>(_key: string, fallback: T) => fallback, update: async () => undefined };
  const tree = new ChangeRequestsTree(deps, new ViewWorkspaces(deps, memento as never));
  const redraw = nextEvent(tree.onDidChangeTreeData, (node) => node === undefined);
  credentialsChanged.fire({ host: 'app.terraform.io', token: 'another-token' });
  assert.equal(await redraw, undefined);
  tree.dispose();
});
