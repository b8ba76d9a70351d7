// Tokens the machine already has for a host, found the way Terraform finds them (the server's own rules, reused):
// `TF_TOKEN_<host>` in the environment and the credentials file `terraform login` writes. Offered at sign-in,
// never used without the user choosing them.
import { TokenResolver, tokenVariableName } from '../../../server/src/auth/tokens';

export interface FoundToken {
  source: 'environment' | 'credentials-file';
  /** Where it was found, for people: the variable's name or the file. Never the token. */
  where: string;
  token: string;
}

export function foundTokens(host: string, environment: Readonly<Record<string, string | undefined>> = process.env): FoundToken[] {
  const found: FoundToken[] = [];
  const variable = tokenVariableName(host);
  const fromEnvironment = environment[variable]?.trim();
  if (fromEnvironment) found.push({ source: 'environment', where: variable, token: fromEnvironment });
  // Only the file: an environment without TF_TOKEN_ variables leaves the resolver nothing else to find.
  const fileOnly = new TokenResolver({ environment: { HOME: environment.HOME } }).resolve(host);
  if (fileOnly?.source === 'credentials-file') found.push({ source: 'credentials-file', where: fileOnly.from ?? 'credentials.tfrc.json', token: fileOnly.token });
  return found;
}
