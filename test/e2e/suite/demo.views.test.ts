// The Change Requests, Variables and Organization views (#10) in a real VS Code against the demo emulator: what each
// tree shows (labels, descriptions, context values), every action from the palette or the tree with its questions
// answered by the test, each change read back from the emulator, the feature-set-off and enterprise cases, and the
// organization token shown exactly once and found in no log or trace afterwards.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, watch } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import * as vscode from 'vscode';
import type { ChangeRequestsNode } from '../../../client/src/changeRequests/changeRequestsTree';
import type { OrganizationNode } from '../../../client/src/organization/organizationTree';
import type { VariablesNode } from '../../../client/src/variables/variablesTree';
import { emulatorInfo, extension, waitFor, withPrompts } from './helpers';

/**
 * GET on the emulator as the owners team's token: the extension uses the owner's, and the service limits each caller
 * to 30 requests a second, so the test's reads get their own budget instead of competing with the views' refreshes.
 */
async function emulatorGet(path: string): Promise<any> {
  const info = emulatorInfo();
  const response = await fetch(`${info.url}/api/v2${path}`, { headers: { Authorization: `Bearer ${info.tokens.team}` } });
  assert.equal(response.status, 200, `GET ${path} answered ${response.status}`);
  return response.json();
}

const api = () => extension().exports.views;
const label = (item: vscode.TreeItem) => (typeof item.label === 'string' ? item.label : (item.label?.label ?? ''));
const tooltip = (item: vscode.TreeItem) => (typeof item.tooltip === 'string' ? item.tooltip : (item.tooltip?.value ?? ''));

async function children<N>(provider: vscode.TreeDataProvider<N>, node?: N): Promise<Array<{ node: N; item: vscode.TreeItem }>> {
  const nodes = (await provider.getChildren(node)) ?? [];
  return Promise.all(nodes.map(async (child) => ({ node: child, item: await provider.getTreeItem(child) })));
}

async function workspaceNode<N>(provider: vscode.TreeDataProvider<N>, name: string): Promise<N> {
  const top = await children(provider);
  const found = top.find(({ item }) => label(item) === name);
  assert.ok(found, `${name} is not in the view (${top.map(({ item }) => label(item)).join(', ')})`);
  return found.node;
}

async function emulatorVariables(): Promise<Array<{ id: string; attributes: { key: string; value: string | null; sensitive: boolean; hcl: boolean; category: string; description?: string } }>> {
  return (await emulatorGet('/vars?filter%5Borganization%5D%5Bname%5D=acme-demo&filter%5Bworkspace%5D%5Bname%5D=demo-app')).data;
}

before(async function () {
  this.timeout(60_000);
  // The views list linked workspaces: wait until the server has linked the demo folder (it reads the workspace first).
  const { linkedWorkspacesRequest } = await import('../../../server/src/protocol');
  const { languageClient } = await import('./helpers');
  await waitFor('demo-app to be linked', extension().exports.events.onWorkspaceChanged, async () =>
    (await languageClient().sendRequest(linkedWorkspacesRequest)).some((f) => f.state.kind === 'linked' && f.state.workspace.name === 'demo-app') ? true : undefined,
  );
});

describe('Change Requests view', function () {
  this.timeout(60_000);

  it('lists open change requests first, archived ones apart in a collapsed group, with who and when; the view is marked beta', async () => {
    const tree = api().changeRequests;
    tree.refresh();
    const demoApp = await workspaceNode<ChangeRequestsNode>(tree, 'demo-app');
    const items = await children(tree, demoApp);
    const open = items.filter(({ node }) => node.kind === 'changeRequest');
    assert.ok(open.length >= 3, `3 open change requests are seeded, saw ${open.length}`);
    for (const { item } of open) {
      assert.match(item.contextValue ?? '', /^hcpChangeRequest open show archive$/);
      assert.match(String(item.description), /ago|just now|\d{4}-/, 'says when');
      assert.equal(item.command?.command, 'hcpTerraform.showChangeRequest');
    }
    const group = items.find(({ node }) => node.kind === 'archived');
    assert.ok(group, 'an Archived group');
    assert.equal(group.item.collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
    assert.ok(items.indexOf(group) > items.indexOf(open[open.length - 1]!), 'archived ones come after the open ones');
    const archived = await children(tree, group.node);
    assert.ok(archived.length >= 2);
    for (const { item } of archived) {
      assert.match(item.contextValue ?? '', /archived/);
      assert.doesNotMatch(item.contextValue ?? '', /\barchive\b/);
      assert.match(String(item.description), /^archived .* by [a-z]/, 'says who archived it');
    }
  });

  it('Show Change Request from the palette: picks one, opens a read-only markdown document', async () => {
    const either = (items: Array<{ label: string; workspace?: { name: string }; changeRequest?: unknown }>) => items.find((i) => i.workspace?.name === 'demo-app' && !i.changeRequest) ?? items[0];
    const doc = await withPrompts({ quickPick: [either, either] }, () =>
      vscode.commands.executeCommand<vscode.TextDocument>('hcpTerraform.showChangeRequest'),
    );
    assert.ok(doc, 'a document was opened');
    assert.equal(doc.uri.scheme, 'hcp-terraform-doc');
    assert.equal(doc.languageId, 'markdown');
    assert.match(doc.getText(), /^# /);
    assert.match(doc.getText(), /Workspace: acme\\-demo\/demo\\-app/);
  });

  it('Create Change Request: subject and markdown message reach the emulator, then show in the tree', async () => {
    const subject = `Rotate the demo keys ${Date.now()}`;
    const asked = await withPrompts(
      {
        stepPickMany: [(items: Array<{ label: string }>) => items.filter((i) => i.label === 'demo-app')],
        stepInput: [subject, 'Keys are **old**.\\nRotate them.'],
      },
      async (asked) => {
        const created = await vscode.commands.executeCommand('hcpTerraform.createChangeRequest');
        assert.ok(created, 'created');
        return asked;
      },
    );
    assert.equal(asked.filter((a) => a.prompt === 'error').length, 0, 'no error was shown');
    const listed = (await emulatorGet('/workspaces/demo-app/change-requests?page%5Bsize%5D=100')).data as Array<{ attributes: { subject: string; message: string } }>;
    const mine = listed.find((cr) => cr.attributes.subject === subject);
    assert.ok(mine, 'the emulator has it');
    assert.equal(mine.attributes.message, 'Keys are **old**.\nRotate them.');
    const items = await children(api().changeRequests, await workspaceNode<ChangeRequestsNode>(api().changeRequests, 'demo-app'));
    assert.ok(items.some(({ item }) => label(item) === subject), 'the tree shows it');
  });

  it('Archive Change Request from the tree asks first; "no" leaves it open, "Archive" archives it on the emulator', async () => {
    const tree = api().changeRequests;
    const open = (await children(tree, await workspaceNode<ChangeRequestsNode>(tree, 'demo-app'))).find(({ node }) => node.kind === 'changeRequest');
    assert.ok(open && open.node.kind === 'changeRequest');
    const id = open.node.changeRequest.id;
    await withPrompts({ modal: [undefined] }, () => vscode.commands.executeCommand('hcpTerraform.archiveChangeRequest', open.node));
    assert.equal((await emulatorGet(`/workspaces/change-requests/${id}`)).data.attributes['archived-at'], null, 'dismissed: still open');
    const result = await withPrompts({ modal: ['Archive'] }, () => vscode.commands.executeCommand<{ archived: boolean; archivedBy?: string }>('hcpTerraform.archiveChangeRequest', open.node));
    assert.equal(result?.archived, true);
    assert.ok((await emulatorGet(`/workspaces/change-requests/${id}`)).data.attributes['archived-at'], 'archived on the emulator');
  });

  it("Archive re-renders the change request's open document: it says archived, no longer open", async () => {
    const tree = api().changeRequests;
    tree.refresh();
    const open = (await children(tree, await workspaceNode<ChangeRequestsNode>(tree, 'demo-app'))).find(({ node }) => node.kind === 'changeRequest');
    assert.ok(open && open.node.kind === 'changeRequest');
    const document = await vscode.commands.executeCommand<vscode.TextDocument>('hcpTerraform.showChangeRequest', open.node);
    assert.match(document.getText(), /^- Open$/m);
    // VS Code reads the document again (editor and preview) only when its provider says it changed: wait for that.
    const rerendered = waitFor('the document to say archived', vscode.workspace.onDidChangeTextDocument, () => (/^- \*\*Archived\*\*/m.test(document.getText()) ? true : undefined));
    await withPrompts({ modal: ['Archive'] }, () => vscode.commands.executeCommand('hcpTerraform.archiveChangeRequest', open.node));
    await rerendered;
    assert.doesNotMatch(document.getText(), /^- Open$/m);
  });

  it("an organization whose plan lacks change requests: the view says so instead of an error (Select Organization, Pin Workspace)", async () => {
    const selected = await withPrompts({ quickPick: [(items: Array<{ label: string }>) => items.find((i) => i.label === 'acme-free')] }, () => vscode.commands.executeCommand<{ organization: string }>('hcpTerraform.selectOrganization'));
    assert.equal(selected?.organization, 'acme-free');
    await withPrompts({ quickPick: [(items: Array<{ label: string }>) => items.find((i) => i.label === 'hello-world')] }, () => vscode.commands.executeCommand('hcpTerraform.pinWorkspace'));
    try {
      const tree = api().changeRequests;
      tree.refresh();
      const items = await children(tree, await workspaceNode<ChangeRequestsNode>(tree, 'hello-world'));
      assert.equal(items.length, 1);
      assert.equal(label(items[0]!.item), "Change requests are not in acme-free's plan (Free): they need the top paid edition.");
      assert.equal(items[0]!.item.contextValue, 'hcpCrFeatureMissing');
      // Creating one there is refused in the same words the service's 404 allows: not in the plan.
      const asked = await withPrompts({ stepPickMany: [(items: Array<{ label: string }>) => items.filter((i) => i.label === 'hello-world')], stepInput: ['x', 'y'] }, async (asked) => {
        await vscode.commands.executeCommand('hcpTerraform.createChangeRequest');
        return asked;
      });
      const error = asked.find((a) => a.prompt === 'error');
      assert.ok(error, 'an error was shown');
      assert.match(String(error.args[0]), /could not create the change request in acme-free: .*plan does not include change requests/);
    } finally {
      const hello = (await children(api().changeRequests)).find(({ item }) => label(item) === 'hello-world');
      if (hello && hello.node.kind === 'workspace') await vscode.commands.executeCommand('hcpTerraform.unpinWorkspace', hello.node);
      await withPrompts({ quickPick: [(items: Array<{ label: string }>) => items.find((i) => i.label === 'acme-demo')] }, () => vscode.commands.executeCommand('hcpTerraform.selectOrganization'));
    }
  });
});

const engineOrDemoApp = (items: Array<{ label: string; category?: string }>) => items.find((i) => i.label === 'demo-app') ?? items.find((i) => i.category === 'engine');
const zonesOrDemoApp = (items: Array<{ label: string }>) => items.find((i) => i.label === 'demo-app') ?? items.find((i) => i.label === 'e2e_zones');

describe('Variables view', function () {
  this.timeout(60_000);

  const variableItems = async () => {
    const tree = api().variables;
    tree.refresh();
    return (await children(tree, await workspaceNode<VariablesNode>(tree, 'demo-app'))).filter(({ node }) => node.kind === 'variable');
  };

  it('shows key, category, HCL and sensitive flags; links declared ones to their block; marks undeclared ones; no sensitive value anywhere', async () => {
    const items = await variableItems();
    const byKey = new Map(items.map(({ node, item }) => [label(item), { node, item }]));
    const region = byKey.get('region');
    assert.ok(region);
    assert.match(region.item.contextValue ?? '', /^hcpVariable engine declared$/);
    assert.equal(region.item.command?.command, 'hcpTerraform.goToVariableDeclaration');
    assert.match(tooltip(region.item), /Overrides terraform\\?\.tfvars/, 'the description is in the tooltip');
    const legacy = byKey.get('legacy_flag');
    assert.ok(legacy);
    assert.match(legacy.item.contextValue ?? '', /\bundeclared\b/);
    assert.match(String(legacy.item.description), /not declared in code/);
    assert.match(String(byKey.get('instance_count')?.item.description), /Terraform · HCL/);
    const secret = byKey.get('AWS_SECRET_ACCESS_KEY');
    assert.ok(secret);
    assert.match(String(secret.item.description), /^environment · sensitive$/);
    assert.doesNotMatch(secret.item.contextValue ?? '', /undeclared/, 'environment variables are never "undeclared"');
    const everything = JSON.stringify(items.map(({ node, item }) => ({ node, description: item.description, tooltip: tooltip(item), label: label(item) })));
    assert.doesNotMatch(everything, /demo-secret-access-key-never-shown/, 'the sensitive value is never fetched into the view');
    // Go to Declaration opens the `variable` block.
    const editor = await vscode.commands.executeCommand<vscode.TextEditor>('hcpTerraform.goToVariableDeclaration', region.node);
    assert.ok(editor);
    assert.match(editor.document.uri.path, /variables\.tf$/);
    assert.match(editor.document.lineAt(editor.selection.active.line).text, /^variable "region"/);
  });

  it('Create Variable from the palette: the key and an HCL value are checked before sending; the emulator gets it', async () => {
    const checks: string[] = [];
    await withPrompts(
      {
        // A workspace first when several are shown, then the category.
        quickPick: [engineOrDemoApp, engineOrDemoApp],
        inputBox: [
          async (options: vscode.InputBoxOptions) => {
            checks.push(String(await options.validateInput?.('1bad')));
            return 'e2e_zones';
          },
          async (options: vscode.InputBoxOptions) => {
            checks.push(String(await options.validateInput?.('["a", ')));
            checks.push(String(await options.validateInput?.('["eu-1a", "eu-1b"]')));
            return '["eu-1a", "eu-1b"]';
          },
          'Zones for the e2e test',
        ],
        quickPickMany: [(items: Array<{ label: string }>) => items.filter((i) => i.label === 'HCL')],
      },
      () => vscode.commands.executeCommand('hcpTerraform.createVariable'),
    );
    assert.match(checks[0]!, /^Key: /, 'an invalid key is refused where it is typed');
    assert.match(checks[1]!, /^Value: Not a valid HCL expression/, "the server's parser refuses broken HCL");
    assert.equal(checks[2], 'undefined', 'valid HCL passes');
    const created = (await emulatorVariables()).find((v) => v.attributes.key === 'e2e_zones');
    assert.ok(created, 'the emulator has it');
    assert.equal(created.attributes.value, '["eu-1a", "eu-1b"]');
    assert.equal(created.attributes.hcl, true);
    assert.equal(created.attributes.description, 'Zones for the e2e test');
    assert.ok((await variableItems()).some(({ item }) => label(item) === 'e2e_zones'), 'the tree shows it');
  });

  it('Edit Variable: a sensitive one becomes non-sensitive only with a new value, asked for even when only that was ticked', async () => {
    const { languageClient } = await import('./helpers');
    const workspaceId = (await emulatorGet('/organizations/acme-demo/workspaces/demo-app')).data.id;
    await languageClient().sendRequest('workspace/executeCommand', { command: 'hcpTerraform.server.createVariable', arguments: [{ workspaceId, key: 'e2e_secret', category: 'engine', value: 'very-secret-value', sensitive: true }] });
    const node = (await variableItems()).find(({ item }) => label(item) === 'e2e_secret')?.node;
    assert.ok(node);
    const asked = await withPrompts({ quickPickMany: [(items: Array<{ label: string }>) => items.filter((i) => i.label === 'Make non-sensitive')], inputBox: ['now-public'] }, async (asked) => {
      await vscode.commands.executeCommand('hcpTerraform.editVariable', node);
      return asked;
    });
    const valueBox = asked.find((a) => a.prompt === 'inputBox');
    assert.ok(valueBox, 'a new value was asked for although only "Make non-sensitive" was ticked');
    assert.equal((valueBox.args[0] as vscode.InputBoxOptions).value, '', 'the old (sensitive) value is never offered');
    const edited = (await emulatorVariables()).find((v) => v.attributes.key === 'e2e_secret');
    assert.equal(edited?.attributes.sensitive, false);
    assert.equal(edited?.attributes.value, 'now-public');
  });

  it('Edit Variable from the palette changes the description; Delete asks first and removes it from the emulator', async () => {
    await withPrompts(
      {
        quickPick: [zonesOrDemoApp, zonesOrDemoApp],
        quickPickMany: [(items: Array<{ label: string }>) => items.filter((i) => i.label === 'Description')],
        inputBox: ['Edited from the palette'],
      },
      () => vscode.commands.executeCommand('hcpTerraform.editVariable'),
    );
    assert.equal((await emulatorVariables()).find((v) => v.attributes.key === 'e2e_zones')?.attributes.description, 'Edited from the palette');
    const node = (await variableItems()).find(({ item }) => label(item) === 'e2e_zones')?.node;
    await withPrompts({ modal: [undefined] }, () => vscode.commands.executeCommand('hcpTerraform.deleteVariable', node));
    assert.ok((await emulatorVariables()).some((v) => v.attributes.key === 'e2e_zones'), 'dismissed: kept');
    await withPrompts({ modal: ['Delete'] }, () => vscode.commands.executeCommand('hcpTerraform.deleteVariable', node));
    assert.equal((await emulatorVariables()).some((v) => v.attributes.key === 'e2e_zones'), false, 'deleted on the emulator');
  });

  it('a quick fix\'s Delete workspace variable asks the same modal as the view, naming the variable, before anything is sent', async () => {
    const { languageClient } = await import('./helpers');
    const workspaceId = (await emulatorGet('/organizations/acme-demo/workspaces/demo-app')).data.id;
    await languageClient().sendRequest('workspace/executeCommand', { command: 'hcpTerraform.server.createVariable', arguments: [{ workspaceId, key: 'e2e_fixed', category: 'engine', value: 'x', sensitive: true }] });
    const variableId = (await emulatorVariables()).find((v) => v.attributes.key === 'e2e_fixed')?.id;
    assert.ok(variableId);
    // The command a quick fix carries, run as VS Code runs it (through the language client's middleware).
    const fix = () => vscode.commands.executeCommand('hcpTerraform.server.deleteVariable', { workspaceId, variableId });
    const dismissed = await withPrompts({ modal: [undefined] }, async (asked) => (await fix(), asked));
    const modal = dismissed.find((a) => a.prompt === 'modal');
    assert.ok(modal, `no modal: ${dismissed.map((a) => a.prompt).join(', ')}`);
    assert.equal(modal.args[0], 'Delete the variable "e2e_fixed" of demo-app?');
    assert.match(String(modal.args[1]), /cannot be undone, and its sensitive value cannot be read back/);
    assert.ok((await emulatorVariables()).some((v) => v.attributes.key === 'e2e_fixed'), 'dismissed: kept');
    await withPrompts({ modal: ['Delete'] }, () => fix());
    assert.equal((await emulatorVariables()).some((v) => v.attributes.key === 'e2e_fixed'), false, 'deleted on the emulator');
  });
});

/** Every file under a folder (the extension's logs: the output channel, which also holds the trace). */
function filesUnder(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder).flatMap((name) => {
    const full = path.join(folder, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

describe('Organization view', function () {
  this.timeout(90_000);

  it('lists the host with its account, the organization, its subscription, limits, features and token', async () => {
    const tree = api().organization;
    tree.refresh();
    const hosts = await children(tree);
    const host = new URL(emulatorInfo().url).host;
    const mine = hosts.find(({ item }) => label(item) === host);
    assert.ok(mine, `the emulator's host is listed (${hosts.map(({ item }) => label(item)).join(', ')})`);
    assert.match(mine.item.contextValue ?? '', /^hcpHost signedIn$/);
    assert.match(String(mine.item.description), /configured address/);
    // Signed in by `terraform login`'s credentials file (the editor holds no token): named by the server's account read.
    assert.match(String(mine.item.description), /^olivia-owner · /, 'the account of the credentials file token');
    const organization = (await children(tree, mine.node)).find(({ node }) => node.kind === 'organization');
    assert.ok(organization);
    assert.equal(label(organization.item), 'acme-demo');
    const sections = await children(tree, organization.node);
    assert.deepEqual(sections.map(({ item }) => label(item)), ['Subscription', 'Limits and quotas', 'Features', 'Organization token']);
    const rows = async (index: number) => (await children(tree, sections[index]!.node)).map(({ item }) => `${label(item)}: ${item.description ?? ''}`);
    const subscription = await rows(0);
    assert.ok(subscription.includes('Plan: Premium'), subscription.join('; '));
    assert.ok(subscription.includes('Status: active'));
    assert.ok((await rows(1)).some((row) => row.startsWith('Concurrent runs: ')));
    assert.ok((await rows(2)).includes('Change requests: on'));
    assert.ok((await rows(3)).some((row) => row.startsWith('Token exists') || row.startsWith('No organization token')));
  });

  it('Show Subscription opens a markdown document of the plan, limits and features', async () => {
    const doc = await vscode.commands.executeCommand<vscode.TextDocument>('hcpTerraform.showSubscription', { hostname: new URL(emulatorInfo().url).host, organization: 'acme-demo' });
    assert.ok(doc);
    assert.match(doc.getText(), /# Subscription of acme-demo/);
    assert.match(doc.getText(), /\| Plan \| Premium \|/);
    assert.match(doc.getText(), /\| Change requests \| on \|/);
  });

  it('Generate Organization Token: confirmed, expiry checked, the secret shown exactly once with Copy, then in no log or trace', async () => {
    const config = vscode.workspace.getConfiguration('hcpTerraform');
    await config.update('trace.server', 'verbose', vscode.ConfigurationTarget.Global);
    // The language client traces only while its channel's level is Trace (the user's "Set Log Level…").
    const channel = extension().exports.views.log;
    await vscode.commands.executeCommand('_extensionTests.setLogLevel', 'trace');
    await waitFor('the log level to be Trace', channel.onDidChangeLogLevel, () => (channel.logLevel === vscode.LogLevel.Trace ? true : undefined), 10_000);
    const shown: string[] = [];
    const checks: string[] = [];
    try {
      const result = await withPrompts(
        {
          modal: ['Generate'],
          inputBox: [
            (options: vscode.InputBoxOptions) => {
              checks.push(String(options.validateInput?.('2001-01-01')));
              return '2099-12-31';
            },
          ],
          showSecretOnce: [
            (message: string, secret: string) => {
              shown.push(secret);
              assert.match(message, /not shown again/);
              return 'Copy';
            },
          ],
        },
        () => vscode.commands.executeCommand<{ generated: boolean; expiredAt?: string }>('hcpTerraform.generateOrganizationToken', { hostname: new URL(emulatorInfo().url).host, organization: 'acme-demo' }),
      );
      assert.equal(result?.generated, true);
      assert.equal(JSON.stringify(result).includes(shown[0] ?? '\u0000'), false, 'the command result does not carry the secret');
      assert.match(checks[0]!, /^Expiry: .*future/);
      assert.equal(shown.length, 1, 'shown exactly once');
      const secret = shown[0]!;
      assert.ok(secret.length > 20);
      assert.equal(await vscode.env.clipboard.readText(), secret, 'Copy put it on the clipboard');
      // It is the real token: the emulator accepts it.
      const details = await fetch(`${emulatorInfo().url}/api/v2/account/details`, { headers: { Authorization: `Bearer ${secret}` } });
      assert.equal(details.status, 200);
      // The view says a token exists, with its expiry, without the secret.
      const tokenRows = await tokenSectionRows();
      assert.ok(tokenRows.some((row) => row.startsWith('Expires: 2099-12-31')), tokenRows.join('; '));
      assert.ok(!tokenRows.join('\n').includes(secret));
      // The log (output channel and trace) got the marker line after the command, and never the secret.
      const logs = extension().exports.views.logUri.fsPath;
      const logRoot = path.dirname(logs);
      const written = () => filesUnder(logRoot).map((file) => readFileSync(file, 'utf8')).join('\n');
      const watcher = new vscode.EventEmitter<void>();
      const fsWatcher = watch(logRoot, { recursive: true }, () => watcher.fire());
      try {
        await waitFor('the log to be written', watcher.event, () => (/Organization token .* of acme-demo generated/.test(written()) ? true : undefined), 20_000);
      } finally {
        fsWatcher.close();
        watcher.dispose();
      }
      const text = written();
      assert.match(text, /workspace\/executeCommand/, 'the trace was on (the test would prove nothing otherwise)');
      assert.equal(text.includes(secret), false, 'the secret is in no log or trace');
      const emulatorLog = await (await fetch(`${emulatorInfo().url}/_emulator/requests`)).text();
      assert.equal(emulatorLog.includes(secret), false);
      await vscode.env.clipboard.writeText('');
    } finally {
      await config.update('trace.server', undefined, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('_extensionTests.setLogLevel', 'info');
    }
  });

  it('Delete Organization Token asks first, then the emulator has none', async () => {
    const ref = { hostname: new URL(emulatorInfo().url).host, organization: 'acme-demo' };
    await withPrompts({ modal: ['Delete'] }, () => vscode.commands.executeCommand('hcpTerraform.deleteOrganizationToken', ref));
    const info = emulatorInfo();
    const response = await fetch(`${info.url}/api/v2/organizations/acme-demo/authentication-token`, { headers: { Authorization: `Bearer ${info.tokens.team}` } });
    assert.equal(response.status, 404, 'no token any more');
    assert.ok((await tokenSectionRows()).some((row) => row.startsWith('No organization token')));
  });

  it('on Terraform Enterprise the subscription reads "not available on this edition", on a second host with its own account', async () => {
    const enterprise = await startEnterpriseEmulator();
    const deps = extension().exports.deps;
    const config = vscode.workspace.getConfiguration('hcpTerraform');
    const previous = config.get<string>('address');
    const host = new URL(enterprise.url).host;
    try {
      await deps.credentials.store(host, enterprise.token);
      const restarted = new Promise<void>((resolve) => {
        const subscription = deps.server.onDidStart(() => {
          subscription.dispose();
          resolve();
        });
      });
      await config.update('address', enterprise.url, vscode.ConfigurationTarget.Global);
      await restarted;
      const tree = api().organization;
      tree.refresh();
      const hosts = await children(tree);
      const mine = hosts.find(({ item }) => label(item) === host);
      assert.ok(mine, 'the enterprise host is listed');
      const organization = await waitForOrganization(tree, mine.node);
      const subscription = await children(tree, (await children(tree, organization))[0]!.node);
      assert.equal(label(subscription[0]!.item), 'Not available on this edition');
      assert.deepEqual((await children(tree, (await children(tree, organization))[2]!.node)).length, 0, 'no features, no error');
    } finally {
      const back = new Promise<void>((resolve) => {
        const subscription = deps.server.onDidStart(() => {
          subscription.dispose();
          resolve();
        });
      });
      await config.update('address', previous === enterprise.url ? undefined : previous, vscode.ConfigurationTarget.Global);
      await back;
      await deps.credentials.delete(host);
      enterprise.stop();
    }
  });
});

async function tokenSectionRows(): Promise<string[]> {
  const tree = api().organization;
  tree.refresh();
  const host = (await children(tree)).find(({ item }) => label(item) === new URL(emulatorInfo().url).host)!;
  const organization = (await children(tree, host.node)).find(({ node }) => node.kind === 'organization')!;
  const token = (await children(tree, organization.node))[3]!;
  return (await children(tree, token.node)).map(({ item }) => `${label(item)}: ${item.description ?? ''}`);
}

/** The organization under a host, once the server has linked the folder there (it reads the workspace first). */
async function waitForOrganization(tree: vscode.TreeDataProvider<OrganizationNode>, host: OrganizationNode): Promise<OrganizationNode> {
  const events = extension().exports.events;
  return waitFor('the organization under the enterprise host', events.onWorkspaceChanged, async () => (await tree.getChildren(host))?.find((node) => node.kind === 'organization'), 30_000);
}

/** A second emulator, on the enterprise edition, as its own process (dist/emulator.js of the extension under test). */
async function startEnterpriseEmulator(): Promise<{ url: string; token: string; stop(): void }> {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'hcp-e2e-tfe-'));
  const infoFile = path.join(folder, 'emulator.json');
  const child = spawn(process.execPath, [path.join(extension().extensionPath, 'dist/emulator.js'), '--seed', 'demo', '--port', '0', '--edition', 'enterprise', '--info', infoFile], {
    stdio: ['ignore', 'pipe', 'ignore'],
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
  });
  const info = await new Promise<{ url: string; tokens: { owner: string } }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the enterprise emulator did not start within 15 s')), 15_000);
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (line !== `wrote ${infoFile}`) return;
      clearTimeout(timer);
      lines.close();
      child.stdout!.resume();
      resolve(JSON.parse(readFileSync(infoFile, 'utf8')));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the enterprise emulator exited (${code})`));
    });
  });
  return {
    url: info.url,
    token: info.tokens.owner,
    stop() {
      child.kill('SIGTERM');
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
