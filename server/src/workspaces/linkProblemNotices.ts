// Says once, in every LSP client, why a folder's workspace cannot be read: a service that does not answer, a token
// that cannot be sent. Before, only the VS Code tree and the code lens (which Neovim does not draw) showed it, and
// the workspace's diagnostics just went away. Said again only after a read succeeded, or when the problem changed.
// (A name the service does not have is the workspace-link diagnostic on the name.)
export type LinkProblem = { kind: 'unreadable' | 'token'; message: string };

export class LinkProblemNotices {
  /** The problem last told, per workspace (knowledge key), or per host for a token's (it is the same for all). */
  private readonly told = new Map<string, string>();

  constructor(private readonly show: (message: string) => void) {}

  /** A read of workspace `key` on `host` ended: with the problem it met, or undefined when it succeeded. */
  update(key: string, host: string, problem: LinkProblem | undefined): void {
    if (!problem) {
      this.told.delete(key);
      this.told.delete(`token\u0000${host}`);
      return;
    }
    const about = problem.kind === 'token' ? `token\u0000${host}` : key;
    // The minute's retry meeting the same problem says nothing; another problem is told (and sent its own way).
    const told = problem.kind === 'token' ? problem.message : problem.kind;
    if (this.told.get(about) === told) return;
    this.told.set(about, told);
    this.show(problem.message);
  }
}
