/**
 * Shares identical GET requests that are in flight at the same time: the views, hovers and diagnostics of the
 * editor often ask for the same run or workspace at once, and one network request should serve them all.
 *
 * Each caller keeps its own cancellation: a caller whose signal aborts stops waiting (CancelledError) without
 * disturbing the others; the shared request itself is aborted only when every caller has gone.
 */
import { CancelledError } from './errors';

interface Flight<T> {
  promise: Promise<T>;
  controller: AbortController;
  waiting: number;
}

export class InFlightRequests<T> {
  private readonly flights = new Map<string, Flight<T>>();

  /** Number of distinct requests currently in flight (for tests and diagnostics). */
  get size(): number {
    return this.flights.size;
  }

  run(key: string, signal: AbortSignal | undefined, start: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (signal?.aborted) return Promise.reject(new CancelledError('waiting for a response'));
    let flight = this.flights.get(key);
    if (!flight) {
      const controller = new AbortController();
      const created: Flight<T> = { controller, waiting: 0, promise: Promise.resolve(undefined as T) };
      created.promise = start(controller.signal).finally(() => {
        if (this.flights.get(key) === created) this.flights.delete(key);
      });
      // The shared promise may reject after every caller left; that rejection is nobody's to handle.
      created.promise.catch(() => undefined);
      this.flights.set(key, created);
      flight = created;
    }
    return this.join(key, flight, signal);
  }

  private join(key: string, flight: Flight<T>, signal: AbortSignal | undefined): Promise<T> {
    flight.waiting++;
    if (!signal) return flight.promise.finally(() => flight.waiting--);
    return new Promise<T>((resolve, reject) => {
      let left = false;
      const leave = () => {
        if (left) return false;
        left = true;
        flight.waiting--;
        signal.removeEventListener('abort', onAbort);
        return true;
      };
      const onAbort = () => {
        if (!leave()) return;
        if (flight.waiting === 0) {
          // Nobody wants the answer any more: stop the request and let a later caller start afresh.
          if (this.flights.get(key) === flight) this.flights.delete(key);
          flight.controller.abort();
        }
        reject(new CancelledError('waiting for a response'));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      flight.promise.then(
        (value) => {
          if (leave()) resolve(value);
        },
        (error: unknown) => {
          if (leave()) reject(error);
        },
      );
    });
  }
}
