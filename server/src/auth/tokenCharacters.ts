// A token travels in the Authorization header, which carries visible ASCII only: a token with a space, a line break
// or a non-ASCII letter inside it (pasted with a stray character) cannot be sent at all. undici refused such a
// header (UND_ERR_INVALID_ARG), which reached the user as a network error ("check the address and your network").
import { describeTokenSource } from './signInNotices';
import type { ResolvedToken } from './tokens';

/** Why `token` cannot be sent to `host`, or undefined when every character of it can. */
export function tokenCharacterProblem(host: string, token: ResolvedToken): string | undefined {
  if (/^[\x21-\x7e]+$/.test(token.token)) return undefined;
  return `the API token for ${host} from ${describeTokenSource(token)} holds a character no token has (a space, a line break or a non-ASCII letter inside it), so it is not sent: copy the token again.`;
}
