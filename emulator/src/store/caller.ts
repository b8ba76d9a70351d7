// Who is calling: resolved from the bearer token by http/auth.ts, used by every permission check.
import type { Team, Token, User } from './model';

export type Caller =
  | { kind: 'user'; token: Token; user: User }
  | { kind: 'team'; token: Token; team: Team; user: User }
  | { kind: 'organization'; token: Token; organization: string; user: User };
