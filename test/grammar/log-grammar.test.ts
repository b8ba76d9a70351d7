import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import type { IGrammar } from 'vscode-textmate';
import { PLAIN, assertScopeTable, scopesOnLine, type ScopeRow } from './scope-table';
import { loadLogGrammar, repoRoot, tokenizeLog, type LogToken } from './tokenize-log';

async function tokenizeFixture(grammar: IGrammar, name: string): Promise<LogToken[][]> {
  const text = await readFile(path.join(repoRoot, 'test', 'fixtures', 'logs', name), 'utf8');
  return tokenizeLog(grammar, text);
}

let grammar: IGrammar;
before(async () => {
  grammar = await loadLogGrammar();
});

describe('run-log grammar on a plan log', () => {
  const rows: ScopeRow[] = [
    [7, 'https://app.terraform.io/app/acme/web-prod/runs/run-CZcmD7eagjhyX0vN', 'markup.underline.link'],
    [11, 'v1.9.5', 'constant.other.version'],
    [14, 'data.aws_ami.ubuntu', 'entity.name.type.resource-address'],
    [14, 'Reading...', 'keyword.other.progress.read'],
    [15, 'Refreshing state...', 'keyword.other.progress.read'],
    [15, 'sg-0a1b2c3d4e5f67890', 'string.unquoted.resource-id'],
    [18, '1s', 'constant.numeric.duration'],
    [20, 'Terraform used the selected providers to generate the following execution', PLAIN],
    [25, '-', 'markup.deleted.diff-marker.destroy'],
    [25, '+', 'markup.inserted.diff-marker.create'],
    [29, 'Terraform will perform the following actions:', 'markup.heading.section'],
    [31, 'data.aws_iam_policy_document.assume', 'entity.name.type.resource-address'],
    [31, 'will be read during apply', 'markup.changed.action.read'],
    [32, '# (config refers to values not yet known)', 'comment.line.number-sign'],
    [33, '<=', 'markup.changed.diff-marker.read'],
    [33, 'data', 'storage.type.block'],
    [33, '"aws_iam_policy_document"', 'entity.name.type.resource-type'],
    [33, '"assume"', 'entity.name.label.resource-name'],
    [34, 'id', 'variable.other.property'],
    [34, '(known after apply)', 'constant.other.placeholder.known-after-apply'],
    [37, 'statement', 'entity.name.section.block'],
    [44, 'aws_db_instance.main', 'entity.name.type.resource-address'],
    [44, 'must be replaced', 'markup.deleted.action.replace'],
    [45, '-', 'markup.deleted.diff-marker.destroy'],
    [45, '+', 'markup.inserted.diff-marker.create'],
    [45, 'resource', 'meta.diff.replace-destroy-first'],
    [47, '20', 'constant.numeric'],
    [47, '->', 'keyword.operator.transition'],
    [47, '50', 'constant.numeric'],
    [48, '13.7', 'string.quoted.double'],
    [48, '# forces replacement', 'markup.deleted.forces-replacement'],
    [50, '(sensitive value)', 'constant.other.placeholder.sensitive'],
    [51, 'publicly_accessible', 'variable.other.property'],
    [51, 'false', 'constant.language.boolean'],
    [52, '# (21 unchanged attributes hidden)', 'comment.line.number-sign'],
    [55, 'aws_instance.web[0]', 'entity.name.type.resource-address'],
    [55, 'will be created', 'markup.inserted.action.create'],
    [56, '+', 'markup.inserted.diff-marker.create'],
    [56, 'resource', 'meta.diff.create'],
    [59, 'true', 'constant.language.boolean'],
    [62, 'web-prod-0', 'string.quoted.double'],
    [62, '=', 'keyword.operator.assignment'],
    [64, '<<-', 'keyword.operator.heredoc'],
    [75, 'aws_lb.legacy', 'entity.name.type.resource-address'],
    [75, 'has moved to', 'markup.changed.action.move'],
    [75, 'aws_lb.main', 'entity.name.type.resource-address'],
    [76, 'resource', 'storage.type.block'],
    [82, 'will be destroyed', 'markup.deleted.action.destroy'],
    [84, '-', 'markup.deleted.diff-marker.destroy'],
    [85, 'null', 'constant.language.null'],
    [90, 'will be updated in-place', 'markup.changed.action.update'],
    [91, '~', 'markup.changed.diff-marker.update'],
    [102, 'module.cache.aws_elasticache_cluster.this["primary"]', 'entity.name.type.resource-address'],
    [103, '+', 'markup.inserted.diff-marker.create'],
    [103, '-', 'markup.deleted.diff-marker.destroy'],
    [103, 'resource', 'meta.diff.replace-create-first'],
    [108, 'Plan:', 'markup.heading.summary'],
    [108, '3', 'constant.numeric.count'],
    [108, 'to add', 'markup.inserted.summary.add'],
    [108, 'to change', 'markup.changed.summary.change'],
    [108, 'to destroy', 'markup.deleted.summary.destroy'],
    [110, 'Changes to Outputs:', 'markup.heading.section'],
    [113, '(known after apply)', 'constant.other.placeholder.known-after-apply'],
    [116, 'Cost Estimation:', 'markup.heading.section'],
    [119, '$91.25/mo', 'constant.numeric.cost'],
  ];

  test('scopes the important tokens of each line', async () => {
    assertScopeTable('plan.log', await tokenizeFixture(grammar, 'plan.log'), rows);
  });
});

describe('run-log grammar on an apply log', () => {
  const rows: ScopeRow[] = [
    [4, 'Destroying...', 'markup.deleted.progress.destroy'],
    [5, 'Modifying...', 'markup.changed.progress.update'],
    [7, 'aws_instance.web[0]', 'entity.name.type.resource-address'],
    [7, 'Creating...', 'markup.inserted.progress.create'],
    [8, 'Destruction complete', 'markup.deleted.progress.destroy'],
    [9, 'Modifications complete', 'markup.changed.progress.update'],
    [9, '2s', 'constant.numeric.duration'],
    [10, 'Still creating...', 'markup.inserted.progress.create'],
    [10, '10s', 'constant.numeric.duration'],
    [11, 'Still destroying...', 'markup.deleted.progress.destroy'],
    [11, 'db-5XKQ3ZP7LMNB2', 'string.unquoted.resource-id'],
    [12, "Provisioning with 'local-exec'...", 'keyword.other.progress.provision'],
    [13, '(local-exec)', 'entity.name.tag.provisioner'],
    [15, 'Creation complete', 'markup.inserted.progress.create'],
    [15, 'i-0d2f4e6a8b0c1d3e5', 'string.unquoted.resource-id'],
    [16, '1m32s', 'constant.numeric.duration'],
    [20, 'Reading...', 'keyword.other.progress.read'],
    [23, 'Apply complete!', 'markup.heading.summary'],
    [23, 'added', 'markup.inserted.summary.add'],
    [23, 'changed', 'markup.changed.summary.change'],
    [23, 'destroyed', 'markup.deleted.summary.destroy'],
    [25, 'Outputs:', 'markup.heading.section'],
    [27, 'db_endpoint', 'variable.other.property'],
    [28, '<sensitive>', 'constant.other.placeholder.sensitive'],
    [30, '10.0.1.23', 'string.quoted.double'],
    [32, '1', 'constant.numeric'],
  ];

  test('scopes the important tokens of each line', async () => {
    assertScopeTable('apply.log', await tokenizeFixture(grammar, 'apply.log'), rows);
  });
});

describe('run-log grammar on an errored log with ANSI colour codes', () => {
  const rows: ScopeRow[] = [
    [4, '\x1b[1m', 'comment.other.ansi-escape'],
    [4, 'data.aws_ami.ubuntu', 'entity.name.type.resource-address'],
    [4, 'Reading...', 'keyword.other.progress.read'],
    [7, '╷', 'punctuation.definition.frame.begin'],
    [8, '│', 'punctuation.definition.frame'],
    [8, 'Warning', 'invalid.deprecated.warning'],
    [8, 'Argument is deprecated', 'markup.bold.diagnostic-summary'],
    [10, 'with', 'keyword.other.diagnostic-context'],
    [10, 'aws_s3_bucket.assets', 'entity.name.type.resource-address'],
    [11, 'storage.tf', 'entity.name.filename'],
    [11, '9', 'constant.numeric.line-number'],
    [12, 'private', 'string.quoted.double'],
    [14, 'Use the aws_s3_bucket_acl resource instead', 'meta.diagnostic.warning'],
    [16, '(and 2 more similar warnings elsewhere)', 'comment.other.similar-diagnostics'],
    [17, '╵', 'punctuation.definition.frame.end'],
    [19, 'Error', 'invalid.illegal.error'],
    [19, 'Invalid value for variable', 'markup.bold.diagnostic-summary'],
    [22, '14', 'constant.numeric.line-number'],
    [23, '├────────────────', 'punctuation.definition.frame'],
    [26, 'instance_type must be one of t3.micro, t3.small or t3.medium.', 'meta.diagnostic.error'],
    [31, 'Error', 'invalid.illegal.error'],
    [33, 'aws_instance.web[0]', 'entity.name.type.resource-address'],
    [38, 'Operation failed', 'invalid.illegal.error.operation-failed'],
  ];

  test('scopes the important tokens of each line', async () => {
    assertScopeTable('errored.log', await tokenizeFixture(grammar, 'errored.log'), rows);
  });

  test('scopes every escape sequence so none shows up as text', async () => {
    const lines = await tokenizeFixture(grammar, 'errored.log');
    const withEscape = lines.flat().filter((token) => token.text.includes('\x1b'));
    assert.ok(withEscape.length > 50, 'the fixture should be a colourised raw log');
    for (const token of withEscape) {
      assert.match(token.text, /^\x1b\[[0-9;]*m$/, `escape merged into text: ${JSON.stringify(token.text)}`);
      assert.ok(token.scopes.includes('comment.other.ansi-escape.hcp-terraform-log'), JSON.stringify(token));
    }
  });

  test('a diagnostic block ends at its closing frame', async () => {
    const lines = await tokenizeFixture(grammar, 'errored.log');
    assert.ok(scopesOnLine(lines, 16).includes('meta.diagnostic.warning.hcp-terraform-log'));
    assert.ok(!scopesOnLine(lines, 17).includes('meta.diagnostic.warning.hcp-terraform-log'));
    assert.ok(!scopesOnLine(lines, 18).includes('meta.diagnostic.warning.hcp-terraform-log'));
    assert.ok(scopesOnLine(lines, 36).includes('meta.diagnostic.error.hcp-terraform-log'));
    assert.ok(!scopesOnLine(lines, 38).includes('meta.diagnostic.error.hcp-terraform-log'));
  });
});

describe('run-log grammar on structured (JSON) log lines', () => {
  const rows: ScopeRow[] = [
    [1, '"@level"', 'support.type.property-name.json'],
    [1, '"info"', 'string.quoted.double.level'],
    [1, '"Terraform 1.9.5"', 'string.quoted.double.message'],
    [1, '2026-11-21T21:02:11.412345Z', 'comment.other.timestamp'],
    [1, '"@module"', 'meta.structured-log-line'],
    [4, '"warn"', 'invalid.deprecated.level.warn'],
    [5, '"Plan: 1 to add, 0 to change, 0 to destroy."', 'string.quoted.double.message'],
    [5, '1', 'constant.numeric'],
    [6, '"error"', 'invalid.illegal.level.error'],
  ];

  test('scopes keys, levels, messages and timestamps', async () => {
    assertScopeTable('structured.log', await tokenizeFixture(grammar, 'structured.log'), rows);
  });
});
