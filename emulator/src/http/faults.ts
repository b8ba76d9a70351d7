// Injected faults (EmulatorControl.injectFault): each spec affects the next `times` matching requests.
// 'html': a proxy's HTML error page (status, default 502) instead of the service's JSON; 'wrong-shape': the handler's
// status with valid JSON that is not the document the API promises (what a half-upgraded service might send).
export type FaultKind = 'latency' | 'status' | 'reset' | 'truncate' | 'malformed' | 'rate-limit' | 'html' | 'wrong-shape';

export interface FaultSpec {
  method?: string;
  /** Path without query: exact string, or a RegExp tested against it. */
  path: string | RegExp;
  kind: FaultKind;
  status?: number;
  latencyMs?: number;
  times?: number;
  /** For 'reset'/'status'/'html': fail before the handler runs (default) or after it changed state. */
  beforeHandling?: boolean;
}

export const faultKinds: readonly FaultKind[] = ['latency', 'status', 'reset', 'truncate', 'malformed', 'rate-limit', 'html', 'wrong-shape'];

interface ActiveFault {
  spec: FaultSpec;
  remaining: number;
}

export class FaultInjector {
  private faults: ActiveFault[] = [];

  /** Validates and arms a fault; a bad spec throws an Error saying what to fix. */
  inject(spec: FaultSpec): void {
    if (!faultKinds.includes(spec.kind)) throw new Error(`Unknown fault kind "${String(spec.kind)}"; use one of ${faultKinds.join(', ')}.`);
    if (typeof spec.path !== 'string' && !(spec.path instanceof RegExp)) throw new Error('A fault needs a path (string) or a RegExp.');
    if (spec.kind === 'status' && !(Number.isInteger(spec.status) && spec.status! >= 400 && spec.status! <= 599)) {
      throw new Error('A "status" fault needs a status between 400 and 599.');
    }
    if (spec.kind === 'html' && spec.status !== undefined && !(Number.isInteger(spec.status) && spec.status >= 400 && spec.status <= 599)) {
      throw new Error('An "html" fault\'s status must be between 400 and 599 (default 502).');
    }
    if (spec.kind === 'latency' && !(typeof spec.latencyMs === 'number' && spec.latencyMs >= 0)) {
      throw new Error('A "latency" fault needs latencyMs >= 0.');
    }
    const times = spec.times ?? 1;
    if (!(times === Infinity || (Number.isInteger(times) && times > 0))) throw new Error('times must be a positive integer or Infinity.');
    this.faults.push({ spec: { ...spec, method: spec.method?.toUpperCase() }, remaining: times });
  }

  /** The first armed fault matching the request, consumed by one use. */
  take(method: string, path: string): FaultSpec | undefined {
    const index = this.faults.findIndex(({ spec }) => {
      if (spec.method && spec.method !== method) return false;
      return typeof spec.path === 'string' ? spec.path === path : spec.path.test(path);
    });
    if (index < 0) return undefined;
    const fault = this.faults[index];
    fault.remaining--;
    if (fault.remaining <= 0) this.faults.splice(index, 1);
    return fault.spec;
  }

  clear(): void {
    this.faults = [];
  }

  /** For the control API's listing: the armed specs and their remaining uses. */
  list(): Array<FaultSpec & { remaining: number }> {
    return this.faults.map(({ spec, remaining }) => ({ ...spec, remaining }));
  }
}
