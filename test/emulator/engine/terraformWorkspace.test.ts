// `terraform.workspace` in a remote run (engine/terraformWorkspace.ts): the workspace's name from Terraform 1.1.0
// on, "default" before (the remote run then used the single default CLI workspace internally); and evaluated in a
// called module too, as Terraform gives every module the same value. The CLI side is test/cli/terraform-workspace.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { readConfiguration } from '../../../emulator/src/engine/configuration';
import { remoteRunWorkspaceName } from '../../../emulator/src/engine/terraformWorkspace';
import type { TerraformParser } from '../../../server/src/model';
import { testParser } from '../../model/helpers';

describe('terraform.workspace', () => {
  let parser: TerraformParser;
  before(async () => {
    parser = await testParser();
  });

  test('the workspace name from Terraform 1.1.0 on, "default" before', () => {
    assert.equal(remoteRunWorkspaceName('networking-prod', '1.11.4'), 'networking-prod');
    assert.equal(remoteRunWorkspaceName('networking-prod', '1.1.0'), 'networking-prod');
    assert.equal(remoteRunWorkspaceName('networking-prod', '1.0.11'), 'default');
    assert.equal(remoteRunWorkspaceName('networking-prod', '0.15.5'), 'default');
  });

  test('a called module reads the same value; without one given it is unknown (known after apply)', () => {
    const files = new Map([
      ['main.tf', Buffer.from('module "child" { source = "./child" }\nresource "x" "root" { name = terraform.workspace }\n')],
      ['child/main.tf', Buffer.from('resource "x" "inner" { name = "in-${terraform.workspace}" }\n')],
    ]);
    const named = readConfiguration(parser, files, new Map(), { workspaceName: 'ws' })!;
    assert.deepEqual(named.instances.map((instance) => [instance.address, instance.values.name]), [['module.child.x.inner', 'in-ws'], ['x.root', 'ws']]);
    const unnamed = readConfiguration(parser, files, new Map())!;
    assert.deepEqual(unnamed.instances.map((instance) => instance.unknown), [['name'], ['name']]);
  });
});
