// POST /runs: turns a request body into a CreateRunInput, or a 422 that says exactly which member is wrong
// and how to fix it (spec §4.2, §7). Values of run variables are never echoed: they may be secrets.
import type { Caller } from '../store/caller';
import { ApiError, invalidAttribute, notFound } from '../http/errors';
import { isObject, optionalBoolean, optionalString, readAttributes, readData, readRelationshipId, type JsonObject } from '../http/jsonapi';
import { canQueueDestroy, workspacePermissions } from '../store/permissions';
import type { Store } from '../store/store';
import type { CreateRunInput } from './engine';
import { isHclLiteral } from '../engine/hclValue';
import type { RunVariable } from './model';

/** Engine versions every organization may pick for a plan-only run (plus each workspace's own version). */
export const availableEngineVersions: readonly string[] = ['1.5.7', '1.6.6', '1.7.5', '1.8.5', '1.9.5', '1.10.5', '1.11.4', '1.12.2'];

const pointer = (key: string) => `/data/attributes/${key}`;

export function readCreateRunRequest(store: Store, caller: Caller, body: unknown): CreateRunInput {
  const data = readData(body);
  if (data.type !== undefined && data.type !== 'runs') {
    throw invalidAttribute('data.type must be "runs".', '/data/type');
  }
  const attributes = readAttributes(data);
  const workspaceId = readRelationshipId(data, 'workspace');
  if (!workspaceId) {
    throw invalidAttribute(
      'relationships.workspace is required: {"workspace": {"data": {"type": "workspaces", "id": "ws-…"}}}.',
      '/data/relationships/workspace/data/id',
    );
  }
  const workspace = store.workspace(workspaceId);
  // Missing and forbidden look the same (spec §7); organization tokens may not queue runs at all (spec §5).
  if (!workspace || !workspacePermissions(store, caller, workspace).canQueueRun) throw notFound('workspace not found');
  const flags = {
    allowEmptyApply: optionalBoolean(attributes, 'allow-empty-apply'),
    allowConfigGeneration: optionalBoolean(attributes, 'allow-config-generation'),
    autoApply: optionalBoolean(attributes, 'auto-apply'),
    debuggingMode: optionalBoolean(attributes, 'debugging-mode'),
    isDestroy: optionalBoolean(attributes, 'is-destroy'),
    refresh: optionalBoolean(attributes, 'refresh'),
    refreshOnly: optionalBoolean(attributes, 'refresh-only'),
    planOnly: optionalBoolean(attributes, 'plan-only'),
    savePlan: optionalBoolean(attributes, 'save-plan'),
  };
  if (flags.isDestroy && flags.refreshOnly) {
    throw invalidAttribute('is-destroy and refresh-only cannot both be true: pick one.', pointer('refresh-only'));
  }
  // A destroy plan the workspace does not allow (allow-destroy-plan off) or this caller may not queue: the service
  // answers as for a workspace it cannot see (go-tfe#130: "resource not found"), as the spec's §7 does for the rest.
  if (flags.isDestroy && !canQueueDestroy(workspacePermissions(store, caller, workspace), workspace)) throw notFound('workspace not found');
  const version = readConfigurationVersion(store, caller, data, workspace.latestConfigurationVersionId, workspace.organization);
  const planOnly = flags.planOnly ?? version.speculative;
  if (flags.savePlan && planOnly) {
    throw invalidAttribute('save-plan and plan-only cannot both be true: a saved plan can be applied later, a plan-only run never.', pointer('save-plan'));
  }
  const engineVersion = optionalString(attributes, 'engine-version') ?? optionalString(attributes, 'terraform-version');
  if (engineVersion !== undefined) {
    if (!planOnly) {
      throw invalidAttribute('engine-version is only valid for plan-only runs: set plan-only to true or drop engine-version.', pointer('engine-version'));
    }
    if (!availableEngineVersions.includes(engineVersion) && engineVersion !== workspace.terraformVersion) {
      throw invalidAttribute(
        `engine-version ${JSON.stringify(engineVersion)} is not available to this organization; available: ${availableEngineVersions.join(', ')}.`,
        pointer('engine-version'),
      );
    }
  }
  const message = optionalString(attributes, 'message');
  const permissions = workspacePermissions(store, caller, workspace);
  return {
    workspaceId: workspace.id,
    createdByUserId: caller.user.id,
    queuerMayApply: permissions.canApply,
    configurationVersionId: version.id,
    message,
    source: 'svc-api',
    ...flags,
    planOnly,
    targetAddrs: readAddresses(attributes, 'target-addrs'),
    replaceAddrs: readAddresses(attributes, 'replace-addrs'),
    variables: readVariables(store, attributes),
    engineVersion,
  };
}

function readConfigurationVersion(store: Store, caller: Caller, data: JsonObject, fallback: string | null, organization: string) {
  const id = readRelationshipId(data, 'configuration-version') ?? fallback;
  if (!id) {
    throw invalidAttribute(
      'The workspace has no configuration version yet: upload one, or name one in relationships.configuration-version.',
      '/data/relationships/configuration-version/data/id',
    );
  }
  const version = store.configurationVersion(id);
  const home = version && store.workspace(version.workspaceId);
  // A version from another workspace is fine (promotion), if the caller can see it and it is in the same organization.
  if (!version || !home || home.organization !== organization || !workspacePermissions(store, caller, home).canRead) {
    throw notFound('configuration version not found');
  }
  if (version.status !== 'uploaded' && version.status !== 'archived') {
    throw new ApiError(422, 'Invalid run parameters', 'Configuration version is still being processed.', {
      pointer: '/data/relationships/configuration-version/data/id',
    });
  }
  return version;
}

function readAddresses(attributes: JsonObject, key: string): string[] | undefined {
  const value = attributes[key];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string' && item.length > 0)) {
    throw invalidAttribute(`${key} must be an array of resource addresses (strings), e.g. ["aws_instance.web"].`, pointer(key));
  }
  return value as string[];
}

function readVariables(store: Store, attributes: JsonObject): RunVariable[] {
  const value = attributes.variables;
  if (value === undefined || value === null) return [];
  const parser = store.terraformParser;
  // The running emulator loads it before serving; only a test store built without it gets here.
  if (!parser) throw new Error('run variables cannot be checked: the emulator was started without its HCL parser');
  if (!Array.isArray(value)) throw invalidAttribute('variables must be an array of {"key": …, "value": …}.', pointer('variables'));
  return value.map((item: unknown, index) => {
    const at = `${pointer('variables')}/${index}`;
    if (!isObject(item) || typeof item.key !== 'string' || item.key.length === 0 || typeof item.value !== 'string') {
      throw invalidAttribute(`variables[${index}] must be {"key": "<name>", "value": "<HCL literal>"} with string key and value.`, at);
    }
    if (!isHclLiteral(parser, item.value)) {
      // Name the key, never the value: run variables often carry secrets.
      throw invalidAttribute(
        `variables[${index}] (${item.key}): the value must be an HCL literal, e.g. "\\"text\\"" (strings need inner quotes), 42, true, ["a"] or {k = "v"}.`,
        `${at}/value`,
      );
    }
    return { key: item.key, value: item.value };
  });
}
