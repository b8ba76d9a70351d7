// The `empty` seed: organization `acme-demo` (top paid edition, same users, teams and tokens as `demo`) with a
// single workspace `demo-app` that has no variables, change requests, configuration versions or runs. Keeping
// the demo names lets a test point the fixture folder at an empty service.
import type { TokenRole } from '../store/model';
import type { Store } from '../store/store';
import { addOrganization, addWorkspace, grant } from './builders';
import { premiumFeatureSet } from './featureSets';
import { addPeople } from './people';

export const emptyOrganization = 'acme-demo';

export function seedEmpty(store: Store, tokens: Record<TokenRole, string>): void {
  addOrganization(store, emptyOrganization, premiumFeatureSet(), 10);
  const { developers, auditors } = addPeople(store, emptyOrganization, tokens);
  const workspace = addWorkspace(store, emptyOrganization, 'demo-app', { createdDaysAgo: 1 });
  grant(developers, workspace, 'plan');
  grant(auditors, workspace, 'read');
}
