// Projects (what `TF_CLOUD_PROJECT` and a cloud block's `project` name): every organization has its "Default
// Project"; workspaces created into another project name it. Read-only: list (filter[names], q) and show.
import { ok } from '../http/context';
import { notFound } from '../http/errors';
import { requireOrganization } from '../http/access';
import { relationship } from '../http/jsonapi';
import type { Router } from '../http/router';
import { seedId } from '../seeds/ids';
import type { Store } from '../store/store';

export const defaultProjectName = 'Default Project';

export function defaultProjectId(organization: string): string {
  return projectId(organization, defaultProjectName);
}

export function projectId(organization: string, name: string): string {
  return seedId('prj', `${organization}/${name}`);
}

/** The organization's projects: the default one and every one a workspace belongs to. */
export function projectsOf(store: Store, organization: string): Array<{ id: string; name: string }> {
  const names = new Set([defaultProjectName, ...store.extraProjects.filter((p) => p.organization === organization).map((p) => p.name)]);
  return [...names].sort().map((name) => ({ id: projectId(organization, name), name }));
}

export function registerProjectRoutes(router: Router): void {
  router.add('GET', '/api/v2/organizations/:organization_name/projects', (ctx) => {
    const organization = requireOrganization(ctx.store, ctx.caller, ctx.params.organization_name);
    const names = ctx.query.get('filter[names]')?.split(',').map((n) => n.trim()).filter(Boolean);
    const q = ctx.query.get('q')?.toLowerCase();
    const projects = projectsOf(ctx.store, organization.name).filter((p) => (!names || names.includes(p.name)) && (!q || p.name.toLowerCase().includes(q)));
    return ok({ data: projects.map((p) => serializeProject(organization.name, p)), meta: { pagination: { 'current-page': 1, 'total-pages': 1, 'total-count': projects.length } } });
  });
  router.add('GET', '/api/v2/projects/:id', (ctx) => {
    for (const organization of ctx.store.organizations.keys()) {
      const project = projectsOf(ctx.store, organization).find((p) => p.id === ctx.params.id);
      if (project) {
        requireOrganization(ctx.store, ctx.caller, organization);
        return ok({ data: serializeProject(organization, project) });
      }
    }
    throw notFound();
  });
}

function serializeProject(organization: string, project: { id: string; name: string }): Record<string, unknown> {
  return {
    id: project.id,
    type: 'projects',
    attributes: { name: project.name, description: null, 'workspace-count': 0, permissions: { 'can-read': true, 'can-create-workspace': true } },
    relationships: { organization: relationship('organizations', organization) },
    links: { self: `/api/v2/projects/${project.id}` },
  };
}
