// The edit that links a folder to a workspace, applied to texts: each shape of existing configuration.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { TextEdit, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { TerraformParser } from '../../server/src/model';
import { linkFolderEdit, type FolderFile } from '../../server/src/workspaces/linkFolderEdit';
import { testParser } from '../model/helpers';

const folder = 'file:///work/app';
const target = { organization: 'acme', workspaceName: 'web-prod' };

function apply(files: FolderFile[], edit: WorkspaceEdit): Record<string, string> {
  const out: Record<string, string> = {};
  for (const file of files) {
    const edits: TextEdit[] = edit.changes?.[file.uri] ?? [];
    out[file.name] = TextDocument.applyEdits(TextDocument.create(file.uri, 'terraform', 1, file.text), edits);
  }
  return out;
}

const file = (name: string, text: string): FolderFile => ({ uri: `${folder}/${name}`, name, text });

describe('linkFolderEdit', () => {
  let parser: TerraformParser;
  before(async () => {
    parser = await testParser();
  });

  test('rewrites an existing cloud block, keeping its hostname and other settings', () => {
    const files = [file('main.tf', 'terraform {\n  required_version = ">= 1.5"\n  cloud {\n    hostname = "tfe.example.com"\n    token    = "x"\n    organization = "old"\n    workspaces {\n      tags = ["app"]\n    }\n  }\n}\n\nresource "a" "b" {}\n')];
    const { edit, file: changed } = linkFolderEdit(parser, folder, files, target);
    assert.equal(changed, `${folder}/main.tf`);
    const text = apply(files, edit)['main.tf']!;
    assert.match(text, /cloud \{\n {4}hostname = "tfe\.example\.com"\n {4}token {4}= "x"\n {4}organization = "acme"\n\n {4}workspaces \{\n {6}name = "web-prod"\n {4}\}\n {2}\}\n\}/);
    assert.doesNotMatch(text, /tags|"old"/);
    assert.match(text, /required_version/);
    assert.match(text, /resource "a" "b" \{\}/);
  });

  test('a new hostname replaces the old one; the default host is not written', () => {
    const files = [file('main.tf', 'terraform {\n  cloud {\n    hostname = "old.example.com"\n    organization = "o"\n    workspaces { name = "w" }\n  }\n}\n')];
    const moved = apply(files, linkFolderEdit(parser, folder, files, { ...target, hostname: 'new.example.com:8443' }).edit)['main.tf']!;
    assert.match(moved, /hostname {5}= "new\.example\.com:8443"/);
    assert.doesNotMatch(moved, /old\.example\.com/);
    const hosted = apply(files, linkFolderEdit(parser, folder, files, { ...target, hostname: 'app.terraform.io' }).edit)['main.tf']!;
    assert.doesNotMatch(hosted, /hostname/);
  });

  test('replaces a remote backend, which cannot stand beside a cloud block', () => {
    const files = [file('backend.tf', 'terraform {\n  backend "remote" {\n    organization = "o"\n    workspaces { prefix = "app-" }\n  }\n}\n')];
    const text = apply(files, linkFolderEdit(parser, folder, files, target).edit)['backend.tf']!;
    assert.doesNotMatch(text, /backend/);
    assert.match(text, /^terraform \{\n {2}cloud \{\n {4}organization = "acme"/);
  });

  test('adds a cloud block to a terraform block that has none', () => {
    const files = [file('versions.tf', 'terraform {\n  required_version = ">= 1.5"\n}\n'), file('main.tf', 'resource "a" "b" {}\n')];
    const { edit, file: changed } = linkFolderEdit(parser, folder, files, target);
    assert.equal(changed, `${folder}/versions.tf`);
    const text = apply(files, edit)['versions.tf']!;
    assert.equal(text, 'terraform {\n  required_version = ">= 1.5"\n\n  cloud {\n    organization = "acme"\n\n    workspaces {\n      name = "web-prod"\n    }\n  }\n}\n');
    assert.equal(parser.parse(text).rootNode.hasError, false);
  });

  test('adds a terraform block to main.tf when there is none', () => {
    const files = [file('variables.tf', 'variable "x" {}\n'), file('main.tf', 'resource "a" "b" {}')];
    const { edit, file: changed } = linkFolderEdit(parser, folder, files, target);
    assert.equal(changed, `${folder}/main.tf`);
    const text = apply(files, edit)['main.tf']!;
    assert.match(text, /^resource "a" "b" \{\}\n\nterraform \{\n {2}cloud \{/);
    assert.equal(parser.parse(text).rootNode.hasError, false);
  });

  test('creates main.tf in a folder without .tf files, and escapes template markers', () => {
    const { edit, file: created } = linkFolderEdit(parser, folder, [], { organization: 'acme', workspaceName: 'odd-${name}' });
    assert.equal(created, `${folder}/main.tf`);
    const [create, change] = edit.documentChanges ?? [];
    assert.deepEqual(create, { kind: 'create', uri: created, options: { ignoreIfExists: true } });
    const text = (change as { edits: TextEdit[] }).edits[0]!.newText;
    assert.match(text, /name = "odd-\$\$\{name\}"/);
  });
});
