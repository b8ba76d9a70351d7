// Shared by the feature tests: the demo-app model (real parser, real fixture files) and hand-made workspace
// snapshots shaped like what the core builds from the emulator's demo seed.
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { ModuleFolderModel } from '../../server/src/model';
import type { TerraformParser } from '../../server/src/model';
import type { SnapshotRun, SnapshotVariable, WorkspaceSnapshot } from '../../server/src/features/host';
import { demoAppFolder, MemoryFileSystem, testParser } from '../model/helpers';

export { demoAppFolder, MemoryFileSystem, testParser };

export const demoWorkspace = { id: 'ws-demo-app', name: 'demo-app', organization: 'acme-demo', hostname: 'app.terraform.io' };

/** The demo seed's variables of workspace demo-app (emulator/src/seeds/demo.ts), as the core would pass them. */
export function demoVariables(): SnapshotVariable[] {
  return [
    { id: 'var-instance-count', key: 'instance_count', value: '3', category: 'engine', hcl: false, sensitive: false },
    { id: 'var-region', key: 'region', value: 'eu-north-1', category: 'engine', hcl: false, sensitive: false },
    { id: 'var-db-password', key: 'db_password', value: 'hunter2-demo', category: 'engine', hcl: false, sensitive: false },
    { id: 'var-services', key: 'services', value: '{ web = { port = 80, public = true }', category: 'engine', hcl: true, sensitive: false },
    { id: 'var-legacy-flag', key: 'legacy_flag', value: 'true', category: 'engine', hcl: false, sensitive: false },
    { id: 'var-tf-var-monitoring', key: 'TF_VAR_enable_monitoring', value: 'true', category: 'env', hcl: false, sensitive: false },
    { id: 'var-tf-log', key: 'TF_LOG', value: 'INFO', category: 'env', hcl: false, sensitive: false },
    { id: 'var-aws-secret', key: 'AWS_SECRET_ACCESS_KEY', category: 'env', hcl: false, sensitive: true },
  ];
}

export function run(id: string, status: string, actions: Partial<SnapshotRun['actions']> = {}, extra: Partial<SnapshotRun> = {}): SnapshotRun {
  return {
    id,
    status,
    actions: { isCancelable: false, isConfirmable: false, isDiscardable: false, isForceCancelable: false, ...actions },
    ...extra,
  };
}

export function linkedSnapshot(model: ModuleFolderModel, overrides: Partial<WorkspaceSnapshot> = {}): WorkspaceSnapshot {
  return { link: model.serviceLink(), workspace: { kind: 'linked', workspace: demoWorkspace }, variables: demoVariables(), runs: {}, featureSet: null, ...overrides };
}

export async function loadDemoModel(): Promise<{ model: ModuleFolderModel; parser: TerraformParser }> {
  const parser = await testParser();
  const model = await ModuleFolderModel.load({ folder: demoAppFolder, parser });
  return { model, parser };
}

/** A model over in-memory files (name → text) in a fake folder. */
export async function loadMemoryModel(files: Record<string, string>): Promise<{ model: ModuleFolderModel; parser: TerraformParser; folder: string }> {
  const parser = await testParser();
  const folder = path.resolve('/virtual/module');
  const fileSystem = new MemoryFileSystem(Object.fromEntries(Object.entries(files).map(([name, text]) => [path.join(folder, name), text])));
  const model = await ModuleFolderModel.load({ folder, parser, fileSystem });
  return { model, parser, folder };
}

export function demoFile(name: string): string {
  return path.join(demoAppFolder, name);
}

export function uriOf(file: string): string {
  return pathToFileURL(file).toString();
}
