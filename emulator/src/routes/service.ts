// Endpoints every client touches first: discovery (notes §12) and ping (notes §1.3).
import type { Router } from '../http/router';

/** Service discovery: every service points back at this emulator (relative URLs resolve against it). */
export const discoveryDocument = {
  'tfe.v2': '/api/v2/',
  'tfe.v2.1': '/api/v2/',
  'tfe.v2.2': '/api/v2/',
  'state.v2': '/api/v2/',
  'modules.v1': '/api/registry/v1/modules/',
  'providers.v1': '/api/registry/v1/providers/',
  'motd.v1': '/api/terraform/motd',
  // No `login.v1`, as on app.terraform.io: with it `terraform login` starts an OAuth flow the service does not
  // offer, and waits forever; without it the CLI asks for a token, checks it with GET account/details, and saves it.
};

export function registerServiceRoutes(router: Router): void {
  router.addPublic('GET', '/.well-known/terraform.json', () => ({
    status: 200,
    raw: Buffer.from(JSON.stringify(discoveryDocument), 'utf8'),
    // The discovery client requires exactly application/json (notes §12).
    contentType: 'application/json',
  }));
  // go-tfe reads only the headers (TFP-API-Version, X-RateLimit-Limit, TFP-AppName), which the pipeline adds.
  router.addPublic('GET', '/api/v2/ping', () => ({ status: 204 }));
  // The message of the day the CLI prints after a remote operation starts: none.
  router.addPublic('GET', '/api/terraform/motd', () => ({ status: 200, raw: Buffer.from('{"msg":""}', 'utf8'), contentType: 'application/json' }));
}
