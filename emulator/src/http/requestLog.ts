// Every API request the emulator received, for tests to assert on (e.g. "the client retried once").
// Entries carry the token's seeded role, never the token.
import type { TokenRole } from '../store/model';

export interface RequestLogEntry {
  time: string;
  method: string;
  /** Path with query, as received. */
  path: string;
  /** HTTP status sent; 0 when the connection was reset by a fault. */
  status: number;
  tokenRole?: TokenRole;
  /** Set when an injected fault shaped this response. */
  fault?: string;
}

/** A long-running demo polls for hours; keep memory bounded by dropping the oldest entries past this many. */
export const maxLogEntries = 100_000;

export class RequestLog {
  private entries: RequestLogEntry[] = [];

  constructor(private readonly capacity = maxLogEntries) {}

  record(entry: RequestLogEntry): void {
    this.entries.push({ ...entry, path: withoutSecrets(entry.path) });
    if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
  }

  all(): RequestLogEntry[] {
    return this.entries.map((entry) => ({ ...entry }));
  }

  clear(): void {
    this.entries = [];
  }
}

/**
 * Blob URLs (uploads, logs, plan JSON, state downloads) need no token: their path segment IS the secret. The log is
 * readable through the control API, so it names the kind of URL and never the secret.
 */
export function withoutSecrets(path: string): string {
  return path.replace(/^(\/_archivist\/v1\/[^/?]+\/)[^/?]+/, '$1<secret>');
}
