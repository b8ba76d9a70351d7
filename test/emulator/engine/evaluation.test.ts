// The configuration engine's evaluator as a plan sees it: count / for_each expansion through locals and functions,
// argument values (templates, each.value, functions, nested blocks), what stays unknown, and sensitive marking.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { readConfiguration, type DeclaredInstance } from '../../../emulator/src/engine/configuration';
import { variableValues } from '../../../emulator/src/engine/plan';
import type { Variable } from '../../../emulator/src/store/model';
import type { TerraformParser } from '../../../server/src/model';
import { testParser } from '../../model/helpers';

const files = (text: string, extra: Record<string, string> = {}) => new Map(Object.entries({ 'main.tf': text, ...extra }).map(([k, v]) => [k, Buffer.from(v)]));
const workspaceVariable = (key: string, value: string, sensitive: boolean): Variable => ({ id: `var-${key}`, workspaceId: 'ws-1', key, value, description: null, category: 'engine', hcl: false, sensitive, createdAt: new Date(0), versionId: 'v' });

describe('configuration engine: evaluation', () => {
  let parser: TerraformParser;
  before(async () => {
    parser = await testParser();
  });
  const read = (text: string) => readConfiguration(parser, files(text), new Map())!;
  const byAddress = (instances: DeclaredInstance[], address: string) => {
    const found = instances.find((i) => i.address === address);
    assert.ok(found, `${address} in ${instances.map((i) => i.address).join(', ')}`);
    return found;
  };

  test('count through a local and length(), for_each over a local map, a set and a for expression; unknown count stands as one', () => {
    const { instances } = read(`
variable "zones" { default = ["a", "b", "c"] }
locals {
  n       = length(var.zones)
  buckets = { logs = "private", site = "public" }
  names   = toset(["x", "y", "x"])
}
resource "r" "counted" {
  count = local.n - 1
  name  = "web-\${count.index}"
  zone  = var.zones[count.index]
}
resource "r" "mapped" {
  for_each = local.buckets
  acl      = each.value
  key      = each.key
}
resource "r" "set" { for_each = local.names }
resource "r" "upper" { for_each = toset([for z in var.zones : upper(z) if z != "b"]) }
resource "r" "none" { count = 0 }
resource "r" "later" { count = length(data.x.y.ids) }
`);
    assert.deepEqual(instances.map((i) => i.address), [
      'r.counted[0]', 'r.counted[1]', 'r.mapped["logs"]', 'r.mapped["site"]', 'r.set["x"]', 'r.set["y"]', 'r.upper["A"]', 'r.upper["C"]', 'r.later',
    ]);
    assert.deepEqual(byAddress(instances, 'r.counted[1]'), { ...byAddress(instances, 'r.counted[1]'), name: 'counted', index: 1, values: { name: 'web-1', zone: 'b' }, unknown: [], sensitive: [] });
    assert.deepEqual(byAddress(instances, 'r.mapped["site"]').values, { acl: 'public', key: 'site' });
    assert.equal(byAddress(instances, 'r.mapped["site"]').index, 'site');
    assert.equal(byAddress(instances, 'r.later').index, undefined);
  });

  test('arguments: templates, heredocs, each.value, functions, conditionals, nested blocks; references and unknown functions are unknown', () => {
    const { instances } = read(`
variable "env" { default = "prod" }
variable "tags" { default = { team = "core" } }
locals { prefix = "\${upper(var.env)}-app" }
resource "r" "x" {
  for_each  = { a = { size = 2 } }
  name      = local.prefix
  size      = each.value.size * 10
  joined    = join(",", concat(["a"], ["b"]), [1])
  formatted = format("%s-%d/%q", var.env, 7, "x")
  tags      = merge(var.tags, { env = var.env })
  team      = lookup(var.tags, "team", "none")
  fallback  = lookup(var.tags, "missing", "none")
  json      = jsonencode({ a = [1, true], b = "<x>" })
  keys      = keys({ b = 1, a = 2 })
  vals      = values({ b = 1, a = 2 })
  lower     = lower("ABC")
  length    = length("héllo")
  big       = var.env == "prod" ? 3 : 1
  heredoc   = <<-EOT
    hello \${var.env}
      indented
    EOT
  spaced    = "a \${var.env} b"
  vpc_id    = aws_vpc.main.id
  from_data = data.x.y.z
  uuid      = uuid()
  partial   = "\${aws_vpc.main.id}-x"
  missing   = var.nothing
  ingress { port = 80 }
  ingress {
    port  = 443
    proto = each.key
  }
  egress { to = aws_vpc.main.cidr }
  lifecycle { create_before_destroy = true }
  depends_on = [aws_vpc.main]
}
`);
    const [x] = instances;
    assert.deepEqual(x!.values, {
      name: 'PROD-app',
      size: 20,
      joined: 'a,b,1',
      formatted: 'prod-7/"x"',
      tags: { team: 'core', env: 'prod' },
      team: 'core',
      fallback: 'none',
      json: '{"a":[1,true],"b":"\\u003cx\\u003e"}',
      keys: ['a', 'b'],
      vals: [2, 1],
      lower: 'abc',
      length: 5,
      big: 3,
      heredoc: 'hello prod\n  indented\n',
      spaced: 'a prod b',
      ingress: [{ port: 80 }, { port: 443, proto: 'a' }],
    });
    assert.deepEqual(x!.unknown, ['vpc_id', 'from_data', 'uuid', 'partial', 'missing', 'egress']);
  });

  test('dynamic blocks expand over their for_each with the iterator; cyclic locals are unknown, not a hang', () => {
    const { instances } = read(`
variable "rules" { default = [{ port = 22 }, { port = 443 }] }
locals {
  a = local.b
  b = local.a
}
resource "r" "x" {
  dynamic "ingress" {
    for_each = var.rules
    iterator = rule
    content {
      port  = rule.value.port
      index = rule.key
    }
  }
  loop = local.a
}
`);
    assert.deepEqual(instances[0]!.values, { ingress: [{ port: 22, index: 0 }, { port: 443, index: 1 }] });
    assert.deepEqual(instances[0]!.unknown, ['loop']);
  });

  test('sensitive: arguments and outputs reading a declared-sensitive or workspace-sensitive variable, also through locals and modules', () => {
    const values = variableValues(parser, new Map(), [workspaceVariable('token', 't0k3n', true), workspaceVariable('plain', 'p', false)], []);
    const declared = readConfiguration(
      parser,
      files(
        `
variable "password" {
  sensitive = true
  default   = "hunter2"
}
variable "token" {}
variable "plain" {}
locals { conn = "user:\${var.password}" }
resource "r" "db" {
  password = var.password
  conn     = local.conn
  token    = var.token
  plain    = var.plain
  nested { secret = var.password }
}
module "m" {
  source = "./m"
  secret = var.password
  open   = var.plain
}
output "pw" { value = var.password }
output "conn" {
  value     = local.conn
  sensitive = true
}
output "plain" { value = var.plain }
output "from_module" { value = module.m.echo }
output "open_from_module" { value = module.m.open }
`,
        { 'm/main.tf': 'variable "secret" {}\nvariable "open" {}\nresource "r" "inner" {\n  s = var.secret\n  o = var.open\n}\noutput "echo" { value = var.secret }\noutput "open" { value = var.open }\n' },
      ),
      values,
    )!;
    const db = declared.instances.find((i) => i.address === 'r.db')!;
    assert.deepEqual(db.sensitive, ['password', 'conn', 'token', 'nested']);
    assert.deepEqual(db.values, { password: 'hunter2', conn: 'user:hunter2', token: 't0k3n', plain: 'p', nested: [{ secret: 'hunter2' }] }, 'values are known; the plan hides them');
    assert.deepEqual(declared.instances.find((i) => i.address === 'module.m.r.inner')!.sensitive, ['s']);
    assert.deepEqual(declared.outputs.map((o) => [o.name, o.sensitive]), [['pw', true], ['conn', true], ['plain', false], ['from_module', true], ['open_from_module', false]]);
    // The explicit option works for callers passing a plain map.
    const explicit = readConfiguration(parser, files('variable "token" {}\nresource "r" "x" { t = var.token }'), new Map([['token', 'x']]), { sensitiveVariables: new Set(['token']) })!;
    assert.deepEqual(explicit.instances[0]!.sensitive, ['t']);
  });
});
