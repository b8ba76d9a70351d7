// Select Organization (on any signed-in host), Show Subscription, Generate and Delete Organization Token: from the
// Organization view and the palette. A generated token's secret is shown exactly once, in a modal with a Copy button,
// and then dropped: it is never stored, logged, traced or put in a document.
import * as vscode from 'vscode';
import type { ClientDeps } from '../clientDeps';
import { registerCommands } from '../commands';
import { hostOf } from '../credentials';
import { log } from '../log';
import { currentOrganization, organizationKey, pickOrganization } from '../runs/runsView';
import { prompts } from '../userPrompts';
import { parseExpiry } from '../variables/variableValidation';
import { failureMessage } from '../views/failure';
import type { ReadOnlyDocuments } from '../views/readOnlyDocuments';
import type { OrganizationRef, OrganizationTree } from './organizationTree';
import { subscriptionMarkdown } from './subscriptionPresentation';

export function registerOrganizationCommands(context: vscode.ExtensionContext, deps: ClientDeps, tree: OrganizationTree, documents: ReadOnlyDocuments): void {
  const organizationOf = async (value: unknown): Promise<OrganizationRef | undefined> => refOf(value) ?? currentOrganization(context, deps);
  registerCommands(context, {
    'hcpTerraform.refreshOrganization': () => tree.refresh(),
    'hcpTerraform.selectOrganization': async (value?: unknown) => {
      const hostname = hostOfArgument(value) ?? (await pickHost(deps, tree));
      if (!hostname) return undefined;
      const organization = await pickOrganization(deps, hostname);
      if (!organization) return undefined;
      const selected = { hostname, organization };
      await context.workspaceState.update(organizationKey, selected);
      tree.refresh();
      void vscode.window.setStatusBarMessage(`HCP Terraform: organization ${organization} selected on ${hostname}`, 4_000);
      return selected;
    },
    'hcpTerraform.showSubscription': async (value?: unknown) => {
      const ref = await organizationOf(value);
      if (!ref) return undefined;
      try {
        const result = await tree.subscription(ref);
        return await documents.openMarkdown(`/subscription/${ref.hostname}/${ref.organization}.md`, subscriptionMarkdown(ref.organization, ref.hostname, result));
      } catch (error) {
        void prompts.error(failureMessage(`read the subscription of ${ref.organization}`, error));
        return undefined;
      }
    },
    'hcpTerraform.generateOrganizationToken': async (value?: unknown) => {
      const ref = await organizationOf(value);
      return ref ? generateToken(deps, tree, ref) : undefined;
    },
    'hcpTerraform.deleteOrganizationToken': async (value?: unknown) => {
      const ref = await organizationOf(value);
      if (!ref) return undefined;
      const answer = await prompts.modal(`Delete the organization token of ${ref.organization}?`, 'Anything using it (CI, scripts) stops working at once. This cannot be undone.', 'Delete');
      if (answer !== 'Delete') return undefined;
      try {
        const result = await deps.server.command('deleteOrganizationToken', ref);
        tree.refresh();
        return result;
      } catch (error) {
        void prompts.error(failureMessage(`delete the organization token of ${ref.organization}`, error));
        return undefined;
      }
    },
  });
}

/** Confirm (it replaces the current token), ask for an expiry, then show the secret once. Returns only whether it worked. */
async function generateToken(deps: ClientDeps, tree: OrganizationTree, ref: OrganizationRef): Promise<{ generated: true; expiredAt?: string } | undefined> {
  const answer = await prompts.modal(
    `Generate a new organization token for ${ref.organization}?`,
    'It replaces the current organization token, if there is one: anything using that one stops working at once. The new token is shown once and never again.',
    'Generate',
  );
  if (answer !== 'Generate') return undefined;
  const expiry = await prompts.inputBox({
    title: `Organization token of ${ref.organization}: expiry`,
    prompt: 'Expiry date (YYYY-MM-DD, UTC) or ISO date-time; leave empty for the service default',
    placeHolder: new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 10),
    ignoreFocusOut: true,
    validateInput: (text) => {
      const parsed = parseExpiry(text, Date.now());
      return 'problem' in parsed ? parsed.problem : undefined;
    },
  });
  if (expiry === undefined) return undefined;
  const parsed = parseExpiry(expiry, Date.now());
  if ('problem' in parsed) return undefined;
  let generated: { id: string; token: string; expiredAt?: string };
  try {
    generated = await deps.server.command('generateOrganizationToken', { ...ref, ...(parsed.expiredAt ? { expiredAt: parsed.expiredAt } : {}) });
  } catch (error) {
    void prompts.error(failureMessage(`generate the organization token of ${ref.organization}`, error));
    // A generate whose answer was lost may still have replaced the token (the server read it back): show what is there.
    tree.refresh();
    return undefined;
  }
  log.info(`Organization token ${generated.id} of ${ref.organization} generated; its secret was shown once and is not kept.`);
  tree.refresh();
  const expires = generated.expiredAt ? `It expires ${generated.expiredAt}.` : 'The service did not give it an expiry.';
  const choice = await prompts.showSecretOnce(`The new organization token of ${ref.organization}. Copy it now: it is not shown again. ${expires}`, generated.token, 'Copy');
  if (choice === 'Copy') {
    await vscode.env.clipboard.writeText(generated.token);
    void vscode.window.setStatusBarMessage('HCP Terraform: organization token copied to the clipboard', 4_000);
  }
  return { generated: true, ...(generated.expiredAt ? { expiredAt: generated.expiredAt } : {}) };
}

function refOf(value: unknown): OrganizationRef | undefined {
  const ref = value as Partial<OrganizationRef> | undefined;
  return typeof ref?.hostname === 'string' && typeof ref.organization === 'string' ? { hostname: ref.hostname, organization: ref.organization } : undefined;
}

function hostOfArgument(value: unknown): string | undefined {
  const hostname = (value as { hostname?: unknown } | undefined)?.hostname;
  return typeof hostname === 'string' && hostname ? hostname : undefined;
}

/** The configured host, or (when several hosts are signed in) the one picked. */
async function pickHost(deps: ClientDeps, tree: OrganizationTree): Promise<string | undefined> {
  const hosts = (await tree.hosts()).filter((host) => host.signedIn);
  if (hosts.length <= 1) return hosts[0]?.hostname ?? hostOf(deps.address());
  const picked = await prompts.quickPick(
    hosts.map((host) => ({ label: host.hostname, description: [host.account, host.configured ? 'configured address' : undefined].filter(Boolean).join(' · ') })),
    { title: 'Select Organization: on which host?', placeHolder: 'Host' },
  );
  return picked?.label;
}
