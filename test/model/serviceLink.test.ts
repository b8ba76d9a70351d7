import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { ModuleFolderModel } from '../../server/src/model';
import type { ServiceLinkOverride } from '../../server/src/model';
import { fixture, MemoryFileSystem, testParser } from './helpers';

const folder = path.resolve('/work/link-test');

async function linkOf(mainTf: string, options: { environment?: Record<string, string>; selected?: string; override?: ServiceLinkOverride } = {}) {
  const files = new MemoryFileSystem({ [path.join(folder, 'main.tf')]: mainTf });
  if (options.selected !== undefined) files.write(path.join(folder, '.terraform/environment'), options.selected);
  const model = await ModuleFolderModel.load({ folder, parser: await testParser(), fileSystem: files, environment: options.environment, override: options.override });
  return model.serviceLink();
}

const cloudWithName = `terraform {
  cloud {
    organization = "acme-demo"
    workspaces {
      name = "demo-app"
    }
  }
}
`;

describe('service link: cloud block', () => {
  test('organization and workspace name from the block, hostname defaulted, with ranges for diagnostics', async () => {
    const link = await linkOf(cloudWithName);
    assert.equal(link.mechanism, 'cloud');
    assert.deepEqual(link.hostname, { value: 'app.terraform.io', source: 'default' });
    assert.equal(link.organization?.value, 'acme-demo');
    assert.equal(link.organization?.source, 'cloud-block');
    assert.equal(link.workspace?.kind, 'name');
    assert.equal(link.workspace?.kind === 'name' && link.workspace.name.value, 'demo-app');
    assert.deepEqual(link.block?.range, { start: { line: 1, character: 2 }, end: { line: 6, character: 3 } });
    assert.deepEqual(link.workspaceNameLine?.range, { start: { line: 4, character: 6 }, end: { line: 4, character: 23 } });
    assert.deepEqual(link.problems, []);
  });

  test('TF_CLOUD_ORGANIZATION / TF_CLOUD_HOSTNAME fill only what the block leaves out', async () => {
    const environment = { TF_CLOUD_ORGANIZATION: 'from-env', TF_CLOUD_HOSTNAME: 'tfe.example.com' };
    const link = await linkOf(cloudWithName, { environment });
    assert.equal(link.organization?.value, 'acme-demo', 'the block wins');
    assert.deepEqual(link.hostname, { value: 'tfe.example.com', source: 'environment', variable: 'TF_CLOUD_HOSTNAME' });

    const bare = await linkOf('terraform {\n  cloud {}\n}\n', { environment: { ...environment, TF_WORKSPACE: 'ws-from-env' } });
    assert.deepEqual(bare.organization, { value: 'from-env', source: 'environment', variable: 'TF_CLOUD_ORGANIZATION' });
    assert.deepEqual(bare.workspace, { kind: 'name', name: { value: 'ws-from-env', source: 'environment', variable: 'TF_WORKSPACE' } });
    assert.deepEqual(bare.problems, []);
  });

  test('a cloud block missing organization and workspace says how to fix each', async () => {
    const link = await linkOf('terraform {\n  cloud {}\n}\n');
    assert.deepEqual(link.problems.map((problem) => problem.code), ['missing-organization', 'missing-workspace']);
    assert.match(link.problems[0].message, /TF_CLOUD_ORGANIZATION/);
    assert.match(link.problems[1].message, /TF_WORKSPACE/);
  });

  test('TF_WORKSPACE that contradicts the block name is reported on the name line', async () => {
    const link = await linkOf(cloudWithName, { environment: { TF_WORKSPACE: 'other' } });
    assert.equal(link.workspace?.kind === 'name' && link.workspace.name.value, 'demo-app');
    const [problem] = link.problems;
    assert.equal(problem.code, 'workspace-mismatch');
    assert.deepEqual(problem.range, link.workspaceNameLine?.range);
  });

  test('tags (map form) with project; the selected workspace comes from TF_WORKSPACE, else .terraform/environment', async () => {
    const tagged = await ModuleFolderModel.load({ folder: fixture('tagged-cloud'), parser: await testParser() });
    const link = tagged.serviceLink();
    assert.equal(link.hostname?.value, 'tfe.internal.example');
    assert.equal(link.project?.value, 'networking');
    assert.equal(link.workspace?.kind, 'tags');
    assert.deepEqual(link.workspace?.kind === 'tags' && link.workspace.tags.value, { layer: 'network', env: 'prod' });
    assert.equal(link.workspace?.kind === 'tags' && link.workspace.selected, undefined, 'nothing selects one of the tagged workspaces');

    const listTags = 'terraform {\n  cloud {\n    organization = "o"\n    workspaces {\n      tags = ["app", "prod"]\n    }\n  }\n}\n';
    const fromFile = await linkOf(listTags, { selected: 'app-prod\n' });
    assert.deepEqual(fromFile.workspace?.kind === 'tags' && [fromFile.workspace.tags.value, fromFile.workspace.selected?.value, fromFile.workspace.selected?.source], [['app', 'prod'], 'app-prod', 'selected-workspace-file']);
    const fromEnv = await linkOf(listTags, { selected: 'app-prod', environment: { TF_WORKSPACE: 'app-dev' } });
    assert.equal(fromEnv.workspace?.kind === 'tags' && fromEnv.workspace.selected?.value, 'app-dev');
    const defaultSelected = await linkOf(listTags, { selected: 'default' });
    assert.equal(defaultSelected.workspace?.kind === 'tags' && defaultSelected.workspace.selected, undefined, '"default" is the CLI workspace, not a service one');
  });

  test('both name and tags, expressions instead of literals, and two cloud blocks are reported', async () => {
    const both = await linkOf('terraform {\n  cloud {\n    organization = "o"\n    workspaces {\n      name = "a"\n      tags = ["t"]\n    }\n  }\n}\n');
    assert.deepEqual(both.problems.map((problem) => problem.code), ['conflicting-workspace-settings']);
    const expression = await linkOf('terraform {\n  cloud {\n    organization = var.org\n    workspaces {\n      name = "a"\n    }\n  }\n}\n');
    assert.deepEqual(expression.problems.map((problem) => problem.code), ['not-literal', 'missing-organization']);
    assert.deepEqual(expression.problems[0].range, { start: { line: 2, character: 4 }, end: { line: 2, character: 26 } });
    assert.match(expression.problems[0].message, /must be written as a literal value/);
    // "" is a literal, just an empty one: said so, not blamed on expressions.
    const empty = await linkOf('terraform {\n  cloud {\n    organization = "o"\n    workspaces {\n      name = ""\n    }\n  }\n}\n');
    assert.match(empty.problems[0]?.message ?? '', /workspace name is empty/);
    const twice = await linkOf(`${cloudWithName}\nterraform {\n  cloud {\n    organization = "x"\n  }\n}\n`);
    assert.equal(twice.organization?.value, 'acme-demo');
    assert.deepEqual(twice.problems.map((problem) => problem.code), ['extra-cloud-block']);
  });
});

describe('service link: legacy remote backend', () => {
  test('hostname, organization and a prefix completed by .terraform/environment', async () => {
    const model = await ModuleFolderModel.load({ folder: fixture('legacy-remote'), parser: await testParser() });
    const link = model.serviceLink();
    assert.equal(link.mechanism, 'remote-backend');
    assert.equal(link.hostname?.value, 'tfe.example.com');
    assert.equal(link.organization?.value, 'legacy-corp');
    assert.equal(link.workspace?.kind, 'prefix');
    if (link.workspace?.kind !== 'prefix') return;
    assert.equal(link.workspace.prefix.value, 'billing-');
    assert.deepEqual({ value: link.workspace.selected?.value, source: link.workspace.selected?.source }, { value: 'billing-staging', source: 'selected-workspace-file' });
  });

  test('TF_CLOUD_* variables do not apply to the remote backend; TF_WORKSPACE selects the CLI workspace', async () => {
    const backend = 'terraform {\n  backend "remote" {\n    workspaces {\n      prefix = "app-"\n    }\n  }\n}\n';
    const link = await linkOf(backend, { environment: { TF_CLOUD_ORGANIZATION: 'ignored', TF_WORKSPACE: 'dev' } });
    assert.equal(link.organization, undefined);
    assert.deepEqual(link.problems.map((problem) => problem.code), ['missing-organization']);
    assert.equal(link.workspace?.kind === 'prefix' && link.workspace.selected?.value, 'app-dev');
  });

  test('other backends do not link; a cloud block beside a remote backend wins and the conflict is reported', async () => {
    assert.equal((await linkOf('terraform {\n  backend "s3" {\n    bucket = "b"\n  }\n}\n')).mechanism, 'none');
    const both = await linkOf(`${cloudWithName}\nterraform {\n  backend "remote" {\n    organization = "x"\n  }\n}\n`);
    assert.equal(both.mechanism, 'cloud');
    assert.deepEqual(both.problems.map((problem) => problem.code), ['cloud-and-backend']);
  });
});

describe('service link: override setting', () => {
  test('wins over the block and the environment, and settles the problems it answers', async () => {
    const link = await linkOf('terraform {\n  cloud {}\n}\n', {
      environment: { TF_CLOUD_ORGANIZATION: 'env-org' },
      override: { organization: 'override-org', workspace: 'override-ws', hostname: 'tfe.override.example' },
    });
    assert.deepEqual(link.organization, { value: 'override-org', source: 'override' });
    assert.deepEqual(link.hostname, { value: 'tfe.override.example', source: 'override' });
    assert.deepEqual(link.workspace, { kind: 'name', name: { value: 'override-ws', source: 'override' } });
    assert.deepEqual(link.problems, []);
    assert.equal(link.mechanism, 'cloud');
  });

  test('links a folder that has no cloud block at all', async () => {
    const link = await linkOf('variable "a" {}\n', { override: { organization: 'o', workspace: 'w' } });
    assert.equal(link.mechanism, 'override');
    assert.deepEqual(link.hostname, { value: 'app.terraform.io', source: 'default' });
  });

  test('changing the environment or override later re-resolves the link', async () => {
    const files = new MemoryFileSystem({ [path.join(folder, 'main.tf')]: 'terraform {\n  cloud {\n    workspaces {\n      name = "w"\n    }\n  }\n}\n' });
    const model = await ModuleFolderModel.load({ folder, parser: await testParser(), fileSystem: files });
    assert.equal(model.serviceLink().organization, undefined);
    model.setEnvironment({ TF_CLOUD_ORGANIZATION: 'later' });
    assert.equal(model.serviceLink().organization?.value, 'later');
    model.setOverride({ organization: 'chosen' });
    assert.equal(model.serviceLink().organization?.value, 'chosen');
  });
});
