// Every custom request's params are checked (zod) before anything reaches the service, and the error names the
// field and the cause; values (a token) are never echoed.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ResponseError } from 'vscode-languageserver';
import { parseRequestParams, requestParamSchemas, type RequestMethod } from '../../server/src/commands/requestParams';
import * as protocol from '../../server/src/protocol';

const failure = (method: RequestMethod, params: unknown): ResponseError<void> => {
  try {
    parseRequestParams(method, params);
  } catch (error) {
    assert.ok(error instanceof ResponseError);
    assert.equal(error.code, -32602, 'InvalidParams');
    return error;
  }
  assert.fail(`${method} accepted ${JSON.stringify(params)}`);
};

describe('custom request params', () => {
  test('every hcpTerraform/* request with params the server handles has a schema', () => {
    const methods = Object.values(protocol)
      .map((value) => (value as { method?: unknown })?.method)
      .filter((method): method is string => typeof method === 'string' && method.startsWith('hcpTerraform/'));
    // Sent by the server (client answers), or without params, or validated where they are handled (setToken).
    const exempt = ['hcpTerraform/serverStatus', 'hcpTerraform/linkedWorkspaces', 'hcpTerraform/setToken', 'hcpTerraform/trustHost', 'hcpTerraform/runsChanged', 'hcpTerraform/workspaceChanged', 'hcpTerraform/signInNeeded', 'hcpTerraform/planOverlayChanged'];
    const missing = methods.filter((method) => !exempt.includes(method) && !(method in requestParamSchemas));
    assert.deepEqual(missing, []);
  });

  test('a wrong type names the field and what it got', () => {
    assert.equal(failure('hcpTerraform/runs', { workspaceId: 42 }).message, 'hcpTerraform/runs: workspaceId must be a string, not a number.');
    assert.equal(failure('hcpTerraform/variables', { workspaceId: ['ws-a'] }).message, 'hcpTerraform/variables: workspaceId must be a string, not an array.');
    assert.equal(failure('hcpTerraform/runDetails', {}).message, 'hcpTerraform/runDetails: runId is missing.');
    assert.match(failure('hcpTerraform/runs', {}).message, /give workspaceId or organization/);
    assert.match(failure('hcpTerraform/workspaces', { organization: 'acme', pageSize: 1000 }).message, /pageSize must be 1 to 100/);
    assert.match(failure('hcpTerraform/watchWorkspaces', { workspaceIds: 'ws-a' }).message, /workspaceIds must be an array/);
    assert.match(failure('hcpTerraform/linkFolderEdit', { folderUri: 'file:///x', organization: 'acme' }).message, /workspaceName is missing/);
    assert.match(failure('hcpTerraform/runs', { workspaceId: 'ws-a', timeframe: 'week' }).message, /timeframe must be a number of days or "year"/);
    assert.match(failure('hcpTerraform/planOverlay', 'file:///x').message, /takes one object as params, not a string/);
  });

  test('a token is never repeated in the error', () => {
    const message = failure('hcpTerraform/validateToken', { hostname: 7, token: 'secret-token-value' }).message;
    assert.match(message, /hostname must be a string/);
    assert.doesNotMatch(message, /secret-token-value/);
  });

  test('good params pass, trimmed, with optional ones left out', () => {
    assert.deepEqual(parseRequestParams('hcpTerraform/runs', { workspaceId: ' ws-a ', pageSize: 20 }), { workspaceId: 'ws-a', pageSize: 20 });
    assert.deepEqual(parseRequestParams('hcpTerraform/organizations', undefined), {});
    assert.deepEqual(parseRequestParams('hcpTerraform/watchWorkspaces', { workspaceIds: [] }), { workspaceIds: [] });
  });
});
