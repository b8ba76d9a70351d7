import type * as vscode from 'vscode';
import type { ClientDeps } from '../clientDeps';
import { log } from '../log';
import { signIn } from '../signIn';
import { prompts } from '../userPrompts';

/**
 * Turns the server's "sign-in needed" (no token, or a refused one) into ONE warning per host with a Sign In button.
 * Never a loop: a dismissed warning is not shown again this session, and a failed or cancelled sign-in does not
 * re-prompt; the Sign In command and the views' welcome stay available. Only a successful sign-in lets a later
 * problem with the new token be offered once more. Registered once per activation, so a server restart asks nothing again.
 */
export function registerSignInPrompt(context: vscode.ExtensionContext, deps: ClientDeps): void {
  const asked = new Set<string>();
  context.subscriptions.push(
    deps.events.onSignInNeeded(async ({ hostname, reason }) => {
      const host = hostname.toLowerCase();
      log.warn(`Sign-in needed for ${host}: ${reason}`);
      if (asked.has(host)) return;
      asked.add(host);
      const choice = await prompts.warning(`HCP Terraform: ${reason}`, 'Sign In');
      if (choice !== 'Sign In') return;
      const outcome = await signIn(deps, host, reason);
      if (outcome.kind === 'signed-in') asked.delete(host);
    }),
  );
}
