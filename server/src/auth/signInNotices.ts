// A missing or refused token, told to the user in any LSP editor: window/showMessage, once per host, saying what
// to do THERE (the TF_TOKEN_<host> variable, `terraform login`'s credentials file, or hcpTerraform/setToken), since
// only VS Code acts on the custom hcpTerraform/signInNeeded notification (its client declares prompts.signIn).
// Never contains a token: only where it came from.
import type { ResolvedToken } from './tokens';
import { tokenVariableName } from './tokens';

export interface SignInNoticesOptions {
  show: (message: string) => void;
  /** False when the client offers sign-in itself (initializationOptions.prompts.signIn). */
  enabled: () => boolean;
  /** The token in use for a host, if any (to say which one was refused). */
  token: (host: string) => ResolvedToken | undefined;
  /** The credentials file `terraform login` writes. */
  credentialsFile: () => string;
  /** What is wrong with that file, if it exists but cannot be used (the advice then says to fix it first). */
  credentialsFileProblem?: () => string | undefined;
}

export class SignInNotices {
  private readonly shown = new Set<string>();

  constructor(private readonly options: SignInNoticesOptions) {}

  /** The host needs a (new) token: says so once, until the client hands over another token for it. */
  signInNeeded(host: string): void {
    if (!this.options.enabled() || this.shown.has(host)) return;
    this.shown.add(host);
    this.options.show(signInAdvice(host, this.options.token(host), this.options.credentialsFile(), this.options.credentialsFileProblem?.()));
  }

  /** A new token for the host: a later problem with it is told again. */
  reset(host: string): void {
    this.shown.delete(host);
  }
}

/**
 * What to do, in an editor other than VS Code, when `host` has no token or refused `refused`. `fileProblem`: the
 * credentials file exists but cannot be used; `terraform login` writes to it, so it must be fixed first.
 */
export function signInAdvice(host: string, refused: ResolvedToken | undefined, credentialsFile: string, fileProblem?: string): string {
  const variable = tokenVariableName(host);
  // A name with a port cannot be exported from a POSIX shell; `env` sets it.
  const setVariable = variable.includes(':') ? `start the editor with \`env '${variable}=<token>' …\`` : `set ${variable}=<token> in the environment the editor starts from`;
  const login = fileProblem
    ? `fix the credentials file first (${fileProblem}) and then run \`terraform login ${host}\` (it writes that file)`
    : `run \`terraform login ${host}\` (it writes ${credentialsFile})`;
  const ways = `${setVariable} (then restart the language server), ${login}, or have the editor send the notification hcpTerraform/setToken {"hostname": "${host}", "token": "<token>"}`;
  if (!refused) return `HCP Terraform: no API token for ${host}, so its workspaces and runs are not shown. To sign in, ${ways}.`;
  return `HCP Terraform: ${host} refused the API token from ${describeTokenSource(refused)} (401): it is wrong, expired or revoked. Create a new token on the service (User Settings → Tokens), then ${ways}.`;
}

/** Where a token came from, for a sentence: "the variable TF_TOKEN_…", "the credentials file …", "the editor (…)". */
export function describeTokenSource(token: ResolvedToken): string {
  if (token.source === 'environment') return `the variable ${token.from}`;
  if (token.source === 'credentials-file') return `the credentials file ${token.from}`;
  return 'the editor (initializationOptions or hcpTerraform/setToken)';
}
