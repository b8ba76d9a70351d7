// Requests about a module folder's code (declared in protocol.ts): the addresses a run can target or replace, a run
// variable checked against its declarations, and the edit that links the folder to a workspace. They read the
// folder's code model; nothing here writes a file.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Connection } from 'vscode-languageserver';
import type { CoreContext } from '../commands/context';
import { invalidParams, toResponseError } from '../commands/errors';
import { parseRequestParams } from '../commands/requestParams';
import type { ModuleFolderModel } from '../model';
import type { ResourceAddress, VariableDeclarationSummary } from '../protocol';
import { checkRunVariableRequest, linkFolderEditRequest, resourceAddressesRequest, variableDeclarationsRequest } from '../protocol';
import { checkRunVariable } from '../commands/runVariables';
import { linkFolderEdit } from './linkFolderEdit';

export function registerFolderRequests(connection: Connection, context: CoreContext): void {
  connection.onRequest(resourceAddressesRequest, (params) =>
    guard(async () => {
      const model = folderModel(context, parseRequestParams('hcpTerraform/resourceAddresses', params).folderUri);
      const addresses: ResourceAddress[] = [];
      for (const contribution of model.index.all()) {
        if (contribution.kind !== 'terraform') continue;
        for (const address of contribution.addresses) {
          if (address.kind === 'ephemeral') continue; // not addressable by -target/-replace
          addresses.push({ address: address.address, uri: pathToFileURL(address.file).href, line: address.range.start.line, kind: address.kind });
        }
      }
      return addresses.sort((a, b) => a.uri.localeCompare(b.uri) || a.line - b.line);
    }),
  );
  connection.onRequest(variableDeclarationsRequest, (raw) =>
    guard(async () => {
      const params = parseRequestParams('hcpTerraform/variableDeclarations', raw);
      const model = folderModel(context, params.folderUri);
      const declarations: VariableDeclarationSummary[] = [];
      for (const contribution of model.index.all()) {
        if (contribution.kind !== 'terraform') continue;
        for (const variable of contribution.variables) {
          declarations.push({
            name: variable.name,
            uri: pathToFileURL(variable.file).href,
            line: variable.range.start.line,
            sensitive: variable.sensitive,
            ...(variable.description ? { description: variable.description } : {}),
          });
        }
      }
      return declarations.sort((a, b) => a.name.localeCompare(b.name));
    }),
  );
  connection.onRequest(checkRunVariableRequest, (raw) =>
    guard(async () => {
      const params = parseRequestParams('hcpTerraform/checkRunVariable', raw);
      // A folder that is not (or no longer) open only loses the declaration checks, not the literal's.
      let model: ModuleFolderModel | undefined;
      try {
        model = params.folderUri ? folderModel(context, params.folderUri) : undefined;
      } catch {
        model = undefined;
      }
      return checkRunVariable(context.parser(), params.key.trim(), params.value.trim(), model);
    }),
  );
  connection.onRequest(linkFolderEditRequest, (raw) =>
    guard(async () => {
      const params = parseRequestParams('hcpTerraform/linkFolderEdit', raw);
      const model = folderModel(context, params.folderUri);
      const parser = context.parser();
      if (!parser) throw invalidParams('The Terraform parser is still loading: try again in a moment.');
      const files = await Promise.all(
        model.index
          .files()
          .filter((file) => file.endsWith('.tf'))
          .map(async (file) => ({ uri: pathToFileURL(file).href, name: path.basename(file), text: model.openText(file) ?? (await readFile(file, 'utf8')) })),
      );
      const target = { organization: params.organization, workspaceName: params.workspaceName, ...(typeof params.hostname === 'string' && params.hostname ? { hostname: params.hostname } : {}) };
      return linkFolderEdit(parser, pathToFileURL(model.folder).href, files, target);
    }),
  );
}

/** The model of a module folder, given the folder's URI or a file's in it. */
export function folderModel(context: CoreContext, folderUri: unknown): ModuleFolderModel {
  if (typeof folderUri !== 'string' || !folderUri) throw invalidParams('Send {"folderUri": "file:///…"} (a module folder, or a file in it).');
  let asPath: string | undefined;
  try {
    asPath = folderUri.startsWith('file:') ? fileURLToPath(folderUri) : folderUri;
  } catch {
    asPath = undefined;
  }
  // The folder itself first (its parent may be a module folder too), then the folder of a file.
  const model = (asPath ? context.folders.get(asPath) : undefined) ?? context.folders.modelFor(folderUri);
  if (!model) throw invalidParams(`No Terraform module folder is open at ${folderUri}: open a folder with .tf files.`);
  return model;
}

async function guard<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toResponseError(error);
  }
}
