// Shapes of terraform output the fixtures do not cover: -no-color diagnostics, TF_LOG lines, rarer resource
// headers, colourised plan lines and stream framing bytes.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { IGrammar } from 'vscode-textmate';
import { assertScopeTable, scopesOnLine, type ScopeRow } from './scope-table';
import { loadLogGrammar, tokenizeLog } from './tokenize-log';

const ESC = '\x1b';

let grammar: IGrammar;
before(async () => {
  grammar = await loadLogGrammar();
});

describe('run-log grammar on output variants', () => {
  test('diagnostics printed with -no-color, with and without the frame', () => {
    const log = [
      'Error: Unsupported argument',
      '╷',
      '│ Warning: Argument is deprecated',
      '│ ',
      '│   on main.tf line 14, in resource "aws_instance" "web":',
      '│   14:   instanc_type = "t3.micro"',
      '╵',
      'Plan: 1 to add, 0 to change, 0 to destroy.',
    ].join('\n');
    const lines = tokenizeLog(grammar, log);
    const rows: ScopeRow[] = [
      [1, 'Error', 'invalid.illegal.error'],
      [1, 'Unsupported argument', 'markup.bold.diagnostic-summary'],
      [3, 'Warning', 'invalid.deprecated.warning'],
      [5, 'main.tf', 'entity.name.filename'],
      [6, '14', 'constant.numeric.line-number'],
      [8, 'Plan:', 'markup.heading.summary'],
    ];
    assertScopeTable('no-color', lines, rows);
    assert.ok(!scopesOnLine(lines, 8).includes('meta.diagnostic.warning.hcp-terraform-log'));
  });

  test('timestamped TF_LOG lines from debugging-mode runs', () => {
    const lines = tokenizeLog(
      grammar,
      [
        '2026-11-21T21:02:11.412Z [ERROR] provider.terraform-provider-aws: Response contains error diagnostic',
        '2026-11-21T21:02:11.413Z [WARN]  Provider "registry.terraform.io/hashicorp/aws" produced an invalid plan',
        '2026-11-21T21:02:11.414Z [DEBUG] ReferenceTransformer: "aws_instance.web" references: []',
      ].join('\n'),
    );
    assertScopeTable('tf-log', lines, [
      [1, '2026-11-21T21:02:11.412Z', 'comment.other.timestamp'],
      [1, 'ERROR', 'invalid.illegal.level.error'],
      [2, 'WARN', 'invalid.deprecated.level.warn'],
      [3, 'DEBUG', 'comment.other.level.debug'],
    ]);
  });

  test('rarer resource headers and summaries', () => {
    const lines = tokenizeLog(
      grammar,
      [
        '  # aws_instance.web is tainted, so must be replaced',
        '  # aws_instance.web will be replaced, as requested',
        '  # aws_instance.web (deposed object 1a2b3c4d) will be destroyed',
        '  # aws_instance.imported will be imported',
        '  # aws_s3_bucket.old will no longer be managed by Terraform',
        'No changes. Your infrastructure matches the configuration.',
        'Destroy complete! Resources: 3 destroyed.',
        'Plan: 1 to import, 0 to add, 0 to change, 0 to destroy.',
        'aws_instance.web: Creation errored after 3s',
      ].join('\n'),
    );
    assertScopeTable('variants', lines, [
      [1, 'is tainted, so must be replaced', 'markup.deleted.action.replace'],
      [2, 'will be replaced, as requested', 'markup.deleted.action.replace'],
      [3, '(deposed object 1a2b3c4d)', 'comment.other.deposed-object'],
      [3, 'will be destroyed', 'markup.deleted.action.destroy'],
      [4, 'will be imported', 'markup.inserted.action.import'],
      [5, 'will no longer be managed by Terraform', 'markup.changed.action.forget'],
      [6, 'No changes.', 'markup.heading.summary'],
      [7, 'Destroy complete!', 'markup.heading.summary'],
      [7, 'destroyed', 'markup.deleted.summary.destroy'],
      [8, 'to import', 'markup.inserted.summary.add'],
      [9, 'Creation errored', 'invalid.illegal.progress.failed'],
    ]);
  });

  test('colourised plan lines keep their structure scopes', () => {
    const lines = tokenizeLog(
      grammar,
      [
        `${ESC}[1m  # aws_instance.web${ESC}[0m will be ${ESC}[1m${ESC}[31mdestroyed${ESC}[0m`,
        `  ${ESC}[31m-${ESC}[0m${ESC}[0m resource "aws_instance" "web" {`,
        `${ESC}[0m${ESC}[1mPlan:${ESC}[0m 0 to add, 0 to change, 1 to destroy.`,
      ].join('\n'),
    );
    assertScopeTable('colour', lines, [
      [1, 'aws_instance.web', 'entity.name.type.resource-address'],
      [1, 'destroyed', 'markup.deleted.action.destroy'],
      [2, '-', 'markup.deleted.diff-marker.destroy'],
      [2, 'resource', 'storage.type.block'],
      [3, 'to destroy', 'markup.deleted.summary.destroy'],
    ]);
    for (const token of lines.flat().filter((t) => t.text.includes(ESC))) {
      assert.ok(token.scopes.includes('comment.other.ansi-escape.hcp-terraform-log'), JSON.stringify(token));
    }
  });

  test('STX/ETX stream framing bytes are scoped and do not hide the line', () => {
    const lines = tokenizeLog(grammar, '\x02Terraform v1.9.5\nApply complete! Resources: 0 added, 0 changed, 0 destroyed.\x03');
    assertScopeTable('framing', lines, [
      [1, '\x02', 'comment.other.stream-framing'],
      [1, 'v1.9.5', 'constant.other.version'],
      [2, 'Apply complete!', 'markup.heading.summary'],
      [2, '\x03', 'comment.other.stream-framing'],
    ]);
  });

  test('placeholder words inside a string stay part of the string', () => {
    const [line] = tokenizeLog(grammar, '      + description = "keeps (known after apply) as text"');
    const token = line.find((t) => t.text === 'keeps (known after apply) as text');
    assert.ok(token, JSON.stringify(line));
    assert.ok(token.scopes.includes('string.quoted.double.hcp-terraform-log'));
    assert.ok(!token.scopes.some((scope) => scope.startsWith('constant.other.placeholder')));
  });

  test('ordinary prose is left unscoped', () => {
    const [line] = tokenizeLog(grammar, 'Waiting for the plan to start...');
    assert.deepEqual(
      line.map((t) => t.scopes),
      [['source.hcp-terraform-log']],
    );
  });
});

describe('run-log grammar on structured run output as log documents show it', () => {
  test('"<address>: Plan to <action>" colours the action like its diff marker; refresh lines are read progress', () => {
    const lines = tokenizeLog(grammar, [
      'terraform_data.app[1]: Plan to create',
      'module.net.aws_vpc.main: Plan to update',
      'aws_instance.web["a"]: Plan to replace',
      'aws_s3_bucket.old: Plan to delete',
      'aws_instance.web: Refresh complete [id=i-123]',
    ].join('\n'));
    assertScopeTable('structured', lines, [
      [1, 'terraform_data.app[1]', 'entity.name.type.resource-address'],
      [1, 'Plan to create', 'markup.inserted.action.create'],
      [2, 'module.net.aws_vpc.main', 'entity.name.type.resource-address'],
      [2, 'Plan to update', 'markup.changed.action.update'],
      [3, 'Plan to replace', 'markup.changed.action.replace'],
      [4, 'Plan to delete', 'markup.deleted.action.destroy'],
      [5, 'Refresh complete', 'keyword.other.progress.read'],
    ]);
  });
});
