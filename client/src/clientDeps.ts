import type { Credentials } from './credentials';
import type { RunActivity } from './runActivity';
import type { ServerAccess } from './serverAccess';
import type { ServerEvents } from './serverEvents';

/** What every view, command and status item of the client is built from (created once in activate). */
export interface ClientDeps {
  server: ServerAccess;
  events: ServerEvents;
  credentials: Credentials;
  activity: RunActivity;
  /** The configured service address (`hcpTerraform.address`). */
  address(): string;
}
