// Says once, in every LSP client, why a folder's workspace cannot be read: a service that does not answer, a token
// that cannot be sent. Before, only the VS Code tree and the code lens (which Neovim does not draw) showed it, and
// the workspace's diagnostics just went away. Said again only after a read succeeded, or when the problem changed.
// (A name the service does not have is the workspace-link diagnostic on the name.)
// A service that stops answering is the same problem for every workspace on it: told once per host, naming the
// workspaces it holds up (N linked folders gave N warnings, each a hit-enter prompt in Neovim).
export type LinkProblem =
  | { kind: 'unreadable' | 'token'; message: string }
  /** The host did not answer (serviceDown.ts); `workspace` is the one whose read met it, `cause` the error's sentence. */
  | { kind: 'service-down'; workspace: string; cause: string };

export class LinkProblemNotices {
  /** The problem last told, per workspace (knowledge key), or per host for a token's or an outage (the same for all). */
  private readonly told = new Map<string, string>();

  /** `workspacesOn`: the names of the workspaces linked on a host, all of which an outage of it holds up. */
  constructor(
    private readonly show: (message: string) => void,
    private readonly workspacesOn: (host: string) => readonly string[] = () => [],
  ) {}

  /** A read of workspace `key` on `host` ended: with the problem it met, or undefined when it succeeded. */
  update(key: string, host: string, problem: LinkProblem | undefined): void {
    if (!problem) {
      this.told.delete(key);
      this.told.delete(tokenKey(host));
      this.told.delete(downKey(host)); // it answered: a later outage is news again
      return;
    }
    if (problem.kind === 'service-down') {
      if (this.told.has(downKey(host))) return;
      this.told.set(downKey(host), problem.kind);
      this.show(serviceDownMessage(host, [problem.workspace, ...this.workspacesOn(host)], problem.cause));
      return;
    }
    const about = problem.kind === 'token' ? tokenKey(host) : key;
    // The minute's retry meeting the same problem says nothing; another problem is told (and sent its own way).
    const told = problem.kind === 'token' ? problem.message : problem.kind;
    if (this.told.get(about) === told) return;
    this.told.set(about, told);
    this.show(problem.message);
  }
}

function serviceDownMessage(host: string, workspaces: readonly string[], cause: string): string {
  const names = [...new Set(workspaces)].sort().map((name) => `"${name}"`);
  const which = names.length === 1 ? `workspace ${names[0]}` : `workspaces ${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  return `HCP Terraform: ${host} is not answering, so ${which} cannot be read (${cause.replace(/\.$/, '')}). What was read before stays shown; trying again every minute.`;
}

const tokenKey = (host: string) => `token\u0000${host}`;
const downKey = (host: string) => `down\u0000${host}`;
