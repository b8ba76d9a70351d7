// The pure pieces of the Change Requests, Variables and Organization views (#10): how items read, what their menus
// key on, and the checks made before anything is sent.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ChangeRequestSummary, SubscriptionResult, VariableDeclarationSummary, VariableSummary } from '../../server/src/protocol';
import { changeRequestContextValue, changeRequestDescription, changeRequestMarkdown, featureMissingMessage, splitChangeRequests } from '../../client/src/changeRequests/changeRequestPresentation';
import { featureRows, limitRows, subscriptionMarkdown, subscriptionRows, tokenRows } from '../../client/src/organization/subscriptionPresentation';
import { isUndeclared, sortVariables, variableContextValue, variableDescription, variableTooltipMarkdown } from '../../client/src/variables/variablePresentation';
import { duplicateProblem, keyProblem, parseExpiry, sensitivityProblem } from '../../client/src/variables/variableValidation';

const now = Date.parse('2026-11-24T12:00:00Z');
const cr = (over: Partial<ChangeRequestSummary>): ChangeRequestSummary => ({ id: 'wscr-1', subject: 'Rotate keys', message: 'Do **it**', archived: false, ...over });

describe('change request presentation', () => {
  test('open ones newest first, archived ones apart, most recently archived first', () => {
    const { open, archived } = splitChangeRequests([
      cr({ id: 'a', createdAt: '2026-11-20T00:00:00Z' }),
      cr({ id: 'b', archived: true, archivedAt: '2026-11-21T00:00:00Z' }),
      cr({ id: 'c', createdAt: '2026-11-23T00:00:00Z' }),
      cr({ id: 'd', archived: true, archivedAt: '2026-11-23T00:00:00Z' }),
    ]);
    assert.deepEqual(open.map((c) => c.id), ['c', 'a']);
    assert.deepEqual(archived.map((c) => c.id), ['d', 'b']);
  });

  test('description says when and who; an archived one says who archived it and when', () => {
    assert.equal(changeRequestDescription(cr({ createdAt: '2026-11-22T12:00:00Z', createdBy: 'olivia' }), now), '2 d ago · olivia');
    assert.equal(changeRequestDescription(cr({ archived: true, archivedAt: '2026-11-24T10:00:00Z', archivedBy: 'max' }), now), 'archived 2 h ago by max');
  });

  test('only an open one can be archived from its menu', () => {
    assert.match(changeRequestContextValue(cr({})), /\barchive\b/);
    assert.doesNotMatch(changeRequestContextValue(cr({ archived: true })), /\barchive\b/);
  });

  test('the document renders the message as markdown and escapes the rest', () => {
    const text = changeRequestMarkdown(cr({ subject: 'Fix *all* things', createdBy: 'olivia', createdAt: '2026-11-22T12:00:00Z' }), { organization: 'acme', name: 'demo-app' });
    assert.match(text, /^# Fix \\\*all\\\* things/);
    assert.match(text, /Do \*\*it\*\*/, 'the message stays markdown');
    assert.match(text, /Open/);
    assert.match(text, /olivia/);
  });

  test('a plan without the feature is said in those words', () => {
    assert.equal(featureMissingMessage('acme-free', 'Free'), "Change requests are not in acme-free's plan (Free): they need the top paid edition.");
  });
});

const variable = (over: Partial<VariableSummary>): VariableSummary => ({ id: 'var-1', key: 'region', category: 'engine', hcl: false, sensitive: false, value: 'eu', ...over });
const declared: VariableDeclarationSummary[] = [{ name: 'region', uri: 'file:///x/variables.tf', line: 0, sensitive: false }];

describe('variable presentation', () => {
  test('Terraform variables first, then environment ones, each by key', () => {
    assert.deepEqual(sortVariables([variable({ key: 'Z', category: 'env' }), variable({ key: 'b' }), variable({ key: 'a' })]).map((v) => v.key), ['a', 'b', 'Z']);
  });

  test('a sensitive variable reads "sensitive" and nothing else, wherever a value would be', () => {
    const secret = variable({ key: 'token', sensitive: true, value: 'leaked-if-shown' });
    assert.match(variableDescription(secret, declared), /sensitive/);
    assert.doesNotMatch(variableDescription(secret, declared), /leaked/);
    assert.doesNotMatch(variableTooltipMarkdown(secret, declared), /leaked/);
  });

  test('the description goes in the tooltip; category and HCL in the description', () => {
    const v = variable({ key: 'count', hcl: true, value: '3', description: 'How many' });
    assert.match(variableTooltipMarkdown(v, declared), /How many/);
    assert.match(variableDescription(v, declared), /Terraform · HCL · = 3/);
  });

  test('a Terraform variable no code declares is marked; an environment one never is; without code nothing is', () => {
    assert.equal(isUndeclared(variable({ key: 'legacy_flag' }), declared), true);
    assert.match(variableDescription(variable({ key: 'legacy_flag' }), declared), /not declared in code/);
    assert.equal(isUndeclared(variable({ key: 'TF_LOG', category: 'env' }), declared), false);
    assert.equal(isUndeclared(variable({ key: 'legacy_flag' }), undefined), false);
    assert.equal(variableContextValue(variable({}), declared), 'hcpVariable engine declared');
    assert.equal(variableContextValue(variable({ key: 'x', sensitive: true }), declared), 'hcpVariable engine sensitive undeclared');
  });
});

describe('checks before sending', () => {
  test('key format by category', () => {
    assert.equal(keyProblem('instance_count', 'engine'), undefined);
    assert.equal(keyProblem('my-var', 'engine'), undefined);
    assert.match(keyProblem('1abc', 'engine') ?? '', /^Key:/);
    assert.match(keyProblem('has space', 'engine') ?? '', /^Key:/);
    assert.match(keyProblem('', 'engine') ?? '', /^Key: enter/);
    assert.equal(keyProblem('AWS_REGION', 'env'), undefined);
    assert.match(keyProblem('my-var', 'env') ?? '', /environment variable name/);
    assert.match(duplicateProblem('region', 'engine', [{ key: 'region', category: 'engine' }]) ?? '', /already has/);
    assert.equal(duplicateProblem('region', 'env', [{ key: 'region', category: 'engine' }]), undefined);
  });

  test('a sensitive variable becomes non-sensitive only with a new value', () => {
    assert.match(sensitivityProblem({ sensitive: true }, { sensitive: false }) ?? '', /^Sensitive: .*new value/);
    assert.equal(sensitivityProblem({ sensitive: true }, { sensitive: false, value: 'new' }), undefined);
    assert.equal(sensitivityProblem({ sensitive: false }, { sensitive: true }), undefined);
    assert.equal(sensitivityProblem({ sensitive: true }, { description: 'x' }), undefined);
  });

  test('token expiry: empty = the service default, a future date, never a past or impossible one', () => {
    assert.deepEqual(parseExpiry('', now), {});
    assert.deepEqual(parseExpiry('2027-01-31', now), { expiredAt: '2027-01-31T23:59:59Z' });
    assert.deepEqual(parseExpiry('2027-01-31T10:00:00Z', now), { expiredAt: '2027-01-31T10:00:00Z' });
    assert.match((parseExpiry('2020-01-01', now) as { problem: string }).problem, /future/);
    assert.match((parseExpiry('2027-02-31', now) as { problem: string }).problem, /not a real date/);
    assert.match((parseExpiry('next week', now) as { problem: string }).problem, /^Expiry:/);
  });
});

const subscription: SubscriptionResult = {
  available: true,
  subscription: { id: 'sub-1', isActive: true, startAt: '2026-01-01T00:00:00Z', runsCeiling: 10, attributes: { 'runs-ceiling': 10, 'agents-ceiling': 5, 'policy-limit': null } },
  featureSet: { id: 'fs-1', name: 'Premium', flags: { 'change-requests': true, sso: false }, attributes: { 'user-limit': 500 } },
};

describe('subscription presentation', () => {
  test('plan, active, start and end; limits with null as unlimited; each feature on or off', () => {
    assert.ok(subscription.available);
    assert.deepEqual(subscriptionRows(subscription).map((r) => `${r.label}: ${r.description}`), ['Plan: Premium', 'Status: active', 'Started: 2026-01-01 00:00 UTC', 'Ends: no end date']);
    const limits = Object.fromEntries(limitRows(subscription).map((r) => [r.label, r.description]));
    assert.equal(limits['Users'], '500');
    assert.equal(limits['Concurrent runs'], '10');
    assert.equal(limits['Policies'], 'unlimited');
    assert.deepEqual(featureRows(subscription).map((r) => `${r.label}: ${r.description}`), ['Change requests: on', 'Sso: off']);
  });

  test('an edition without the interface: the document says why, not an error', () => {
    const text = subscriptionMarkdown('acme', 'tfe.example.com', { available: false, edition: 'enterprise', reason: 'Not available on this edition: Terraform Enterprise has no subscription interface.' });
    assert.match(text, /Not available on this edition/);
  });

  test('the token: whether it exists, when made and when it expires, never more', () => {
    assert.deepEqual(tokenRows({ exists: false, reason: 'none' }).map((r) => r.label), ['No organization token']);
    const rows = tokenRows({ exists: true, id: 'at-1', createdAt: '2026-11-01T00:00:00Z', expiredAt: '2027-01-01T00:00:00Z' });
    assert.deepEqual(rows.map((r) => `${r.label}: ${r.description}`), ['Token exists: at-1', 'Created: 2026-11-01 00:00 UTC', 'Expires: 2027-01-01 00:00 UTC']);
  });
});
