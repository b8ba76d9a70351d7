// The emulator's store, routes and run engine on a given clock, with one organization on the premium feature set
// and its people: what the runs tests' harness and the run watcher's bench both start from.
import type { Clock } from '../../emulator/src/clock';
import { Router } from '../../emulator/src/http/router';
import { registerCoreRoutes } from '../../emulator/src/routes';
import { createRunEngine, registerRunRoutes } from '../../emulator/src/runs';
import { addOrganization } from '../../emulator/src/seeds/builders';
import { premiumFeatureSet } from '../../emulator/src/seeds/featureSets';
import { addPeople } from '../../emulator/src/seeds/people';
import { resolveTokens } from '../../emulator/src/seeds/tokens';
import { Store } from '../../emulator/src/store/store';
import { loadTerraformParser } from '../../server/src/model';

export async function createRunsEmulator(clock: Clock, organization: string) {
  const store = new Store(clock, 'hosted');
  // Run variables are checked with the parser, whether or not plans follow the configuration.
  store.terraformParser = await loadTerraformParser();
  const router = new Router();
  registerCoreRoutes(router);
  const engine = createRunEngine(store, clock);
  registerRunRoutes(router, engine);
  const tokens = resolveTokens();
  addOrganization(store, organization, premiumFeatureSet(), 400);
  const people = addPeople(store, organization, tokens);
  return { store, router, engine, tokens, people };
}
