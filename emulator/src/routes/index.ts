// Every non-run route, registered in one place.
import type { Router } from '../http/router';
import { registerBulkActionRoute } from './bulkActions';
import { registerChangeRequestRoutes } from './changeRequests';
import { registerConfigurationVersionRoutes } from './configurationVersions';
import { registerOrganizationRoutes } from './organizations';
import { registerOrganizationTokenRoutes } from './organizationToken';
import { registerServiceRoutes } from './service';
import { registerStateVersionRoutes } from './stateVersions';
import { registerProjectRoutes } from './projects';
import { registerWorkspaceDeletionRoutes } from './workspaceDeletion';
import { registerWorkspaceWriteRoutes } from './workspaceWrites';
import { registerUserRoutes } from './users';
import { registerVariableRoutes } from './vars';
import { registerWorkspaceRoutes } from './workspaces';

export function registerCoreRoutes(router: Router): void {
  registerServiceRoutes(router);
  registerUserRoutes(router);
  registerOrganizationRoutes(router);
  registerOrganizationTokenRoutes(router);
  registerWorkspaceRoutes(router);
  registerConfigurationVersionRoutes(router);
  registerVariableRoutes(router);
  registerChangeRequestRoutes(router);
  registerBulkActionRoute(router);
  registerStateVersionRoutes(router);
  registerProjectRoutes(router);
  registerWorkspaceWriteRoutes(router);
  registerWorkspaceDeletionRoutes(router);
}
