// The users, teams and seeded tokens both seeds share, so the five tokens behave the same in `demo` and `empty`:
//   owner  — olivia (owners team: admin everywhere, manages the organization token)
//   member — max (developers team: may queue plans on demo-app but not apply)
//   reader — rita (auditors team: read-only)
//   team   — the owners team's token;  organization — the organization token
import type { Team, TokenRole, User } from '../store/model';
import type { Store } from '../store/store';
import { addTeam, addToken, addUser } from './builders';

export interface People {
  owner: User;
  member: User;
  reader: User;
  owners: Team;
  developers: Team;
  auditors: Team;
}

export function addPeople(store: Store, organization: string, tokens: Record<TokenRole, string>): People {
  const owner = addUser(store, 'olivia-owner', 'olivia@acme.example');
  const member = addUser(store, 'max-member', 'max@acme.example');
  const reader = addUser(store, 'rita-reader', 'rita@acme.example');
  const owners = addTeam(store, organization, 'owners', [owner], true);
  const developers = addTeam(store, organization, 'developers', [member]);
  const auditors = addTeam(store, organization, 'auditors', [reader]);
  addToken(store, tokens.owner, { kind: 'user', userId: owner.id }, 'owner', { id: owner.id, type: 'users' });
  addToken(store, tokens.member, { kind: 'user', userId: member.id }, 'member', { id: member.id, type: 'users' });
  addToken(store, tokens.reader, { kind: 'user', userId: reader.id }, 'reader', { id: reader.id, type: 'users' });
  addToken(store, tokens.team, { kind: 'team', teamId: owners.id }, 'team', { id: owner.id, type: 'users' });
  addToken(store, tokens.organization, { kind: 'organization', organization }, 'organization', { id: owner.id, type: 'users' });
  return { owner, member, reader, owners, developers, auditors };
}
