// Links each module folder to the shared knowledge of its workspace, and implements the FeatureHost the language
// features read: models, immutable per-folder snapshots (a new object only when something in it changed), the
// lazy name lookups for completion, and one change event for both model edits and workspace knowledge.
import path from 'node:path';
import { collectItems } from '../api';
import type { ServiceClient } from '../api';
import { comparableHost } from '../auth/tokens';
import type { ModuleFolders } from '../documents/moduleFolders';
import type { Disposable, FeatureHost, FeatureHostChange, WorkspaceSnapshot } from '../features/host';
import type { ModuleFolderModel, ServiceLink } from '../model';
import type { WorkspaceDirectory } from './directory';
import type { ServiceHosts } from './hosts';
import type { KnowledgeTarget, WorkspaceKnowledge } from './knowledge';
import { knowledgeKey } from './knowledge';
import type { TimerHandle, Timers } from './timers';

interface FolderLink {
  link: ServiceLink;
  linkJson: string;
  target?: KnowledgeTarget;
  /** Undefined while a new target waits out the typing delay (the snapshot says `loading`). */
  knowledge?: WorkspaceKnowledge;
  pending?: TimerHandle;
  snapshot?: { linkJson: string; version: number; value: WorkspaceSnapshot };
}

const nameCacheMs = 60_000;
/** After a failed lookup (signed out, unreachable), completion does not start another one before this long. */
const nameRetryMs = 10_000;

/**
 * Names for completion as last read (`names` undefined until the first read succeeds), and the read under way.
 * Completion answers from here at once and never waits for the service (#14: a service that never answers stalled
 * it for two minutes); a read in flight makes the completion list incomplete, so the editor asks again.
 */
interface NameEntry {
  names?: readonly string[];
  readAt: number;
  failedAt?: number;
  reading?: Promise<void>;
}
/**
 * Typing `name = "demo-app"` in a cloud block passes through "d", "de", "dem"...: a link that changed by an edit
 * is only looked up once the text has been still this long, so no keystroke ever calls the service.
 */
export const relinkDelayMs = 800;

export class FolderLinks implements FeatureHost {
  private readonly links = new Map<string, FolderLink>();
  private readonly listeners = new Set<(change: FeatureHostChange) => void>();
  private readonly nameCache = new Map<string, NameEntry>();

  constructor(
    private readonly folders: ModuleFolders,
    private readonly directory: WorkspaceDirectory,
    private readonly hosts: ServiceHosts,
    private readonly timers: Timers,
    private readonly onFolderKnowledgeChanged: (folder: string) => void,
  ) {}

  // ---- FeatureHost ----

  modelFor(uriOrPath: string): ModuleFolderModel | undefined {
    return this.folders.modelFor(uriOrPath);
  }

  models(): Iterable<ModuleFolderModel> {
    return this.folders.all();
  }

  snapshotFor(folder: string): WorkspaceSnapshot | undefined {
    const entry = this.links.get(path.resolve(folder));
    if (!entry) return undefined;
    const version = entry.knowledge?.version ?? -1;
    if (entry.snapshot && entry.snapshot.linkJson === entry.linkJson && entry.snapshot.version === version) return entry.snapshot.value;
    const value = this.buildSnapshot(entry);
    entry.snapshot = { linkJson: entry.linkJson, version, value };
    return value;
  }

  organizationNames(hostname: string, askingFolder?: string): Promise<readonly string[]> {
    // The token's organizations from the service, plus those the other folders on this host already name (which an
    // organization the token cannot list may be; the completion still helps to type them consistently). Not the
    // asking folder's own: that is the half-typed text, which would come back as a name ("acme-" for "acme-").
    const host = comparableHost(hostname);
    const asking = askingFolder === undefined ? undefined : path.resolve(askingFolder);
    const linked = new Set<string>();
    for (const [folder, entry] of this.links) if (folder !== asking && entry.target?.hostname === host) linked.add(entry.target.organization);
    const fromService = this.knownNames(host, '', (client) =>
      collectItems(client.organization.pages(), { maxPages: 10 }).then((organizations) =>
        organizations.map((organization) => organization.attributes.name ?? organization.id),
      ),
    );
    return Promise.resolve([...new Set([...(fromService ?? []), ...linked])].sort());
  }

  workspaceNames(hostname: string, organization: string): Promise<readonly string[]> {
    const host = comparableHost(hostname);
    const names = this.knownNames(host, organization, (client) =>
      collectItems(client.workspaces.pages(organization, { pageSize: 100 }), { maxPages: 10 }).then((workspaces) =>
        workspaces.map((workspace) => workspace.attributes.name).sort(),
      ),
    );
    return Promise.resolve(names ?? []);
  }

  configuredHostname(): string {
    return this.hosts.configuredHost;
  }

  namesPending(hostname: string, organization?: string): boolean {
    return this.nameCache.get(nameKey(comparableHost(hostname), organization ?? ''))?.reading !== undefined;
  }

  /**
   * The names known now (stale ones too), never waiting: a read starts in the background when they are missing or
   * older than the cache period, at most one per key at a time, and not again within nameRetryMs of a failure.
   */
  private knownNames(host: string, organization: string, read: (client: ServiceClient) => Promise<string[]>): readonly string[] | undefined {
    const key = nameKey(host, organization);
    let entry = this.nameCache.get(key);
    if (!entry) this.nameCache.set(key, (entry = { readAt: -Infinity }));
    const now = this.timers.now();
    const stale = now - entry.readAt >= nameCacheMs;
    const resting = entry.failedAt !== undefined && now - entry.failedAt < nameRetryMs;
    const client = stale && !entry.reading && !resting ? this.hosts.clientFor(host) : undefined;
    if (client) {
      const reading = entry;
      reading.reading = read(client)
        .then(
          (names) => {
            reading.names = names;
            reading.readAt = this.timers.now();
            reading.failedAt = undefined;
          },
          () => {
            reading.failedAt = this.timers.now(); // the core reports sign-in and reachability; stale names stay
          },
        )
        .finally(() => (reading.reading = undefined));
    }
    return entry.names;
  }

  onDidChange(listener: (change: FeatureHostChange) => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  // ---- core side ----

  /**
   * The folder's files or link inputs changed: re-link if the target moved, and tell the features. `immediate`
   * for a folder just discovered or opened (no typing to wait out). A change of no file is immediate too: it is the
   * editor's settings (the override, the environment), not typing in a cloud block; a folder that waited for its
   * module calls to be known takes its override that way (ModuleFolders.overrideFor).
   */
  modelChanged(model: ModuleFolderModel, files?: readonly string[], immediate = false): void {
    const relinked = this.relink(model, immediate || files?.length === 0);
    this.fire({ folder: model.folder, kind: 'model', ...(files ? { files } : {}) });
    if (relinked) this.fire({ folder: model.folder, kind: 'snapshot' });
  }

  /** The folder is gone (its workspace folder closed): let go of its workspace and tell the features. */
  modelRemoved(folder: string): void {
    const entry = this.links.get(folder);
    if (!entry) return;
    entry.pending?.cancel();
    if (entry.knowledge) this.directory.release(entry.knowledge);
    this.links.delete(folder);
    this.fire({ folder, kind: 'model' });
  }

  /** The configured address changed: folders without a hostname of their own now point elsewhere. */
  relinkAll(): void {
    for (const model of this.folders.all()) if (this.relink(model, true)) this.fire({ folder: model.folder, kind: 'snapshot' });
  }

  knowledgeChanged(knowledge: WorkspaceKnowledge): void {
    for (const [folder, entry] of this.links) {
      if (entry.knowledge !== knowledge) continue;
      this.fire({ folder, kind: 'snapshot' });
      this.onFolderKnowledgeChanged(folder);
    }
  }

  linkOf(folder: string): { link: ServiceLink; target?: KnowledgeTarget; knowledge?: WorkspaceKnowledge } | undefined {
    return this.links.get(path.resolve(folder));
  }

  linkedFolders(): string[] {
    return [...this.links.keys()].sort();
  }

  dispose(): void {
    for (const entry of this.links.values()) {
      entry.pending?.cancel();
      if (entry.knowledge) this.directory.release(entry.knowledge);
    }
    this.links.clear();
    this.listeners.clear();
  }

  private relink(model: ModuleFolderModel, immediate: boolean): boolean {
    const link = this.withConfiguredHost(model.serviceLink());
    const linkJson = JSON.stringify(link);
    const target = targetOf(link);
    const entry = this.links.get(model.folder);
    if (entry && entry.linkJson === linkJson) return false;
    const sameTarget = entry && (entry.target ? knowledgeKey(entry.target) : '') === (target ? knowledgeKey(target) : '');
    if (entry && sameTarget) {
      // Same workspace, the link only moved or changed in detail: the 'model' event the caller fires covers it
      // (the next snapshotFor builds a snapshot with the new link).
      entry.link = link;
      entry.linkJson = linkJson;
      return false;
    }
    entry?.pending?.cancel();
    if (entry?.knowledge) this.directory.release(entry.knowledge);
    const next: FolderLink = { link, linkJson, ...(target ? { target } : {}) };
    this.links.set(model.folder, next);
    if (target && (immediate || !entry)) next.knowledge = this.directory.acquire(target);
    else if (target) {
      next.pending = this.timers.setTimer(relinkDelayMs, () => {
        next.pending = undefined;
        if (this.links.get(model.folder) !== next) return;
        next.knowledge = this.directory.acquire(target);
        this.fire({ folder: model.folder, kind: 'snapshot' });
        this.onFolderKnowledgeChanged(model.folder);
      });
    }
    this.onFolderKnowledgeChanged(model.folder);
    return true;
  }

  /** A link whose hostname is Terraform's default (the cloud block names none) uses the configured address's host. */
  private withConfiguredHost(link: ServiceLink): ServiceLink {
    if (link.mechanism === 'none') return link;
    if (!link.hostname || link.hostname.source === 'default') return { ...link, hostname: { value: this.hosts.configuredHost, source: 'default' } };
    return { ...link, hostname: { ...link.hostname, value: comparableHost(link.hostname.value) } };
  }

  private buildSnapshot(entry: FolderLink): WorkspaceSnapshot {
    const knowledge = entry.knowledge;
    if (!knowledge) return { link: entry.link, workspace: entry.target ? { kind: 'loading' } : { kind: 'not-linked' } };
    const snapshot: WorkspaceSnapshot = { link: entry.link, workspace: knowledge.state };
    if (knowledge.state.kind === 'linked') {
      if (knowledge.variables) snapshot.variables = knowledge.variables;
      const runs = knowledge.runs();
      if (runs) snapshot.runs = runs;
      if (knowledge.featureSet !== undefined) snapshot.featureSet = knowledge.featureSet;
    }
    return snapshot;
  }

  private fire(change: FeatureHostChange): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(change);
      } catch {
        // A failing listener must not stop the others (features log their own errors).
      }
    }
  }
}

/** The workspace a link names, when it names exactly one. */
export function targetOf(link: ServiceLink): KnowledgeTarget | undefined {
  if (link.mechanism === 'none' || !link.hostname || !link.organization || !link.workspace) return undefined;
  const name = link.workspace.kind === 'name' ? link.workspace.name.value : link.workspace.selected?.value;
  if (!name) return undefined;
  return { hostname: comparableHost(link.hostname.value), organization: link.organization.value, name };
}

/** The name cache's key: organization '' is the host's organization list. */
function nameKey(host: string, organization: string): string {
  return `${host}\u0000${organization}`;
}
