// Says once, in every LSP client, why a folder's workspace cannot be read: a name the service does not know (or the
// token may not read), a service that does not answer. Before, only the VS Code tree and the code lens (which Neovim
// does not draw) showed it, and the workspace's diagnostics just went away. Said again only after a read succeeded.
export type LinkProblem = { kind: 'not-found' | 'unreadable'; message: string };

export class LinkProblemNotices {
  /** The kind of problem last told, per workspace (knowledge key). */
  private readonly told = new Map<string, LinkProblem['kind']>();

  constructor(private readonly show: (message: string) => void) {}

  /** A read of the workspace ended: with the problem it met, or undefined when it succeeded. */
  update(key: string, problem: LinkProblem | undefined): void {
    if (!problem) {
      this.told.delete(key);
      return;
    }
    if (this.told.get(key) === problem.kind) return; // the minute's retry met the same problem
    this.told.set(key, problem.kind);
    this.show(problem.message);
  }
}
