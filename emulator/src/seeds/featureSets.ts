// The two pricing tiers the seeds use: the top paid edition (every feature the runs and change-request code
// checks) and the free tier. Attribute names are the spec's (§2.2) plus `change-requests` (notes §3.3).
import type { FeatureSet } from '../store/model';
import { seedId } from './ids';

export function premiumFeatureSet(): FeatureSet {
  return {
    id: seedId('fs', 'premium'),
    name: 'Premium',
    identifier: 'premium',
    attributes: {
      'audit-logging': true,
      'change-requests': true,
      'comparison-description': 'Everything in Plus, with change requests and private networking',
      'cost-estimation': true,
      cost: 0,
      description: 'Top paid edition: policy enforcement, run tasks, cost estimation, teams and change requests.',
      'global-run-tasks': true,
      identifier: 'premium',
      'is-current': true,
      'is-free-tier': false,
      'module-tests-generation': true,
      name: 'Premium',
      plan: null,
      'policy-enforcement': true,
      'policy-limit': null,
      'policy-mandatory-enforcement-limit': null,
      'policy-set-limit': null,
      'private-networking': true,
      'private-policy-agents': true,
      'private-vcs': true,
      'run-task-limit': null,
      'run-task-mandatory-enforcement-limit': null,
      'run-task-workspace-limit': null,
      'run-tasks': true,
      'self-serve-billing': false,
      'policy-engine': true,
      sso: true,
      teams: true,
      'user-limit': 500,
      'versioned-policy-set-limit': null,
    },
  };
}

export function freeFeatureSet(): FeatureSet {
  return {
    id: seedId('fs', 'free'),
    name: 'Free',
    identifier: 'free',
    attributes: {
      'audit-logging': false,
      'change-requests': false,
      'comparison-description': 'Get started with remote state and runs',
      'cost-estimation': false,
      cost: 0,
      description: 'Free tier for individuals and small teams.',
      'global-run-tasks': false,
      identifier: 'free',
      'is-current': true,
      'is-free-tier': true,
      'module-tests-generation': false,
      name: 'Free',
      plan: null,
      'policy-enforcement': false,
      'policy-limit': 5,
      'policy-mandatory-enforcement-limit': 1,
      'policy-set-limit': 1,
      'private-networking': false,
      'private-policy-agents': false,
      'private-vcs': false,
      'run-task-limit': 1,
      'run-task-mandatory-enforcement-limit': 1,
      'run-task-workspace-limit': 10,
      'run-tasks': false,
      'self-serve-billing': true,
      'policy-engine': false,
      sso: false,
      teams: false,
      'user-limit': 5,
      'versioned-policy-set-limit': 0,
    },
  };
}
