// Picks and applies a seed; returns the organization the RunningEmulator reports.
import type { TokenRole } from '../store/model';
import type { Store } from '../store/store';
import { demoOrganization, seedDemo } from './demo';
import { emptyOrganization, seedEmpty } from './empty';

export type SeedName = 'demo' | 'empty';

export function applySeed(store: Store, seed: SeedName, tokens: Record<TokenRole, string>): string {
  if (seed === 'demo') {
    seedDemo(store, tokens);
    return demoOrganization;
  }
  seedEmpty(store, tokens);
  return emptyOrganization;
}
