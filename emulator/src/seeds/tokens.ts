// The five seeded tokens: random per start unless fixed (tests that need stable values, `--fixed-tokens`).
// These are emulator tokens, not real secrets; they still never reach the request log or error bodies.
import type { TokenRole } from '../store/model';
import { newTokenSecret } from '../store/ids';

export const tokenRoles: readonly TokenRole[] = ['owner', 'member', 'reader', 'team', 'organization'];

/** Stable tokens for `--fixed-tokens`, in the service's `<14 chars>.atlasv1.<long>` shape. */
export const fixedTokens: Record<TokenRole, string> = {
  owner: 'emulatorOwner0.atlasv1.fixedOwnerTokenOfTheLocalEmulatorNotARealSecret000000000000000',
  member: 'emulatorMember.atlasv1.fixedMemberTokenOfTheLocalEmulatorNotARealSecret00000000000000',
  reader: 'emulatorReader.atlasv1.fixedReaderTokenOfTheLocalEmulatorNotARealSecret00000000000000',
  team: 'emulatorTeam00.atlasv1.fixedOwnersTeamTokenOfTheLocalEmulatorNotARealSecret00000000000',
  organization: 'emulatorOrgTkn.atlasv1.fixedOrganizationTokenOfTheLocalEmulatorNotARealSecret000000000',
};

/** Fills the roles not given with random tokens; rejects empty, whitespace-containing or duplicate tokens. */
export function resolveTokens(given: Partial<Record<TokenRole, string>> = {}): Record<TokenRole, string> {
  const tokens = {} as Record<TokenRole, string>;
  for (const role of tokenRoles) {
    const value = given[role];
    if (value !== undefined && (typeof value !== 'string' || value.length === 0 || /\s/.test(value))) {
      throw new Error(`The ${role} token must be a non-empty string without whitespace.`);
    }
    tokens[role] = value ?? newTokenSecret();
  }
  const unknown = Object.keys(given).filter((role) => !tokenRoles.includes(role as TokenRole));
  if (unknown.length > 0) throw new Error(`Unknown token roles: ${unknown.join(', ')}; use ${tokenRoles.join(', ')}.`);
  if (new Set(Object.values(tokens)).size !== tokenRoles.length) throw new Error('Each token role needs a different token.');
  return tokens;
}
