// Tells the user when a request waits before going out (#14 item 9): "rate limited, retrying in N s" instead of a
// spinner that says nothing. Sent as window/showMessage, which every LSP client shows (VS Code as a notification,
// Neovim/Helix/Emacs in their message area). Short waits stay silent, and a host gets at most one notice per quiet
// period, so a burst of throttled requests (or the run watcher's background reads) does not flood the editor.
import type { RequestWait } from '../api';
import { operationLabels } from '../api';
import type { Timers } from './timers';

export interface WaitNoticeOptions {
  timers: Timers;
  show(message: string): void;
  /** Waits shorter than this are not worth a message (default 2 s). */
  minWaitMs?: number;
  /** At most one notice per host this often (default 30 s). */
  quietMs?: number;
}

export class WaitNotices {
  private readonly lastShown = new Map<string, number>();

  constructor(private readonly options: WaitNoticeOptions) {}

  notice(hostname: string, wait: RequestWait): void {
    if (wait.waitMs < (this.options.minWaitMs ?? 2_000)) return;
    const now = this.options.timers.now();
    const last = this.lastShown.get(hostname);
    if (last !== undefined && now - last < (this.options.quietMs ?? 30_000)) return;
    this.lastShown.set(hostname, now);
    const seconds = Math.ceil(wait.waitMs / 1000);
    const purpose = `to ${operationLabels[wait.operation]}`;
    if (wait.reason === 'paced') {
      // The client's own spacing, not the service: it goes on while the service is down, as failed requests count too.
      this.options.show(`HCP Terraform: holding a request to ${hostname} for ${seconds} s (${purpose}) to stay within the service's rate limits.`);
      return;
    }
    this.options.show(`HCP Terraform: ${whatHappened(hostname, wait)}; retrying in ${seconds} s (${purpose}).`);
  }
}

/** The service's side of a retry, as it happened. */
function whatHappened(hostname: string, wait: RequestWait): string {
  switch (wait.reason) {
    case 'rate-limited':
      return `${hostname} is rate limiting requests (429)`;
    case 'server-error':
      return `${hostname} answered with an error (${wait.status ?? '5xx'})`;
    case 'timed-out':
      return `${hostname} did not answer in time`;
    default:
      return `${hostname} could not be reached`;
  }
}
