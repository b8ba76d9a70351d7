/**
 * Typed errors of the service API client. Every error carries a user-ready `message` (what failed and what to do),
 * and none of them ever contains the API token: the requester scrubs it from anything the server or the network
 * layer echoed back before building these.
 */

export type ApiErrorKind = 'service' | 'network' | 'timeout' | 'cancelled' | 'malformed' | 'rate-limited';

export abstract class ApiError extends Error {
  abstract readonly kind: ApiErrorKind;
  /** The operation that failed, e.g. `applyRun` (see operations.ts); undefined for raw transport use. */
  readonly operation: string | undefined;
  /**
   * A write whose request may have been handled although no clear answer came back (a reset or 5xx after the
   * service acted, a timeout, a cut or unreadable 2xx body): never resend it; read the state back (uncertainWrites.ts).
   */
  mayHaveSucceeded = false;

  protected constructor(message: string, operation: string | undefined) {
    super(message);
    this.name = new.target.name;
    this.operation = operation;
  }
}

/** One JSON:API error object as the service sent it (status normalised to a number when it is one). */
export interface ServiceErrorObject {
  status?: number;
  title?: string;
  detail?: string;
  pointer?: string;
}

/** The service answered with an error status (4xx/5xx other than a 429 that outlived the retries). */
export class ServiceError extends ApiError {
  readonly kind = 'service' as const;
  constructor(
    message: string,
    operation: string | undefined,
    readonly status: number,
    readonly title: string,
    readonly detail: string | undefined,
    /** What this status means for this operation (the spec's section 7, or a generic reading of the code). */
    readonly meaning: string,
    readonly errors: readonly ServiceErrorObject[],
  ) {
    super(message, operation);
  }
}

/** The request could not be exchanged with the service: DNS, refused connection, reset socket, TLS... */
export class NetworkError extends ApiError {
  readonly kind = 'network' as const;
  constructor(
    message: string,
    operation: string | undefined,
    /** The low-level code, e.g. `ECONNREFUSED`, `UND_ERR_SOCKET`. */
    readonly code: string | undefined,
    /** False only when the request provably never reached the server (so even a write may be sent again). */
    readonly requestMayHaveBeenSent: boolean,
  ) {
    super(message, operation);
  }
}

export class TimeoutError extends ApiError {
  readonly kind = 'timeout' as const;
  constructor(message: string, operation: string | undefined, readonly timeoutMs: number) {
    super(message, operation);
  }
}

/** The caller cancelled (its AbortSignal fired). Not a failure to show to the user. */
export class CancelledError extends ApiError {
  readonly kind = 'cancelled' as const;
  constructor(what: string, operation?: string) {
    super(`Cancelled while ${what}.`, operation);
  }
}

/** The service answered, but not with what the API promises: bad JSON, or a document missing required members. */
export class MalformedResponseError extends ApiError {
  readonly kind = 'malformed' as const;
  constructor(
    message: string,
    operation: string | undefined,
    readonly status: number,
    /** What exactly was wrong, e.g. `data.attributes.status: expected string, received number`. */
    readonly problem: string,
  ) {
    super(message, operation);
  }
}

/** Still answered 429 after every allowed retry. */
export class RateLimitedError extends ApiError {
  readonly kind = 'rate-limited' as const;
  constructor(
    message: string,
    operation: string | undefined,
    readonly attempts: number,
    /** How long the service last asked to wait, when it said so. */
    readonly retryAfterMs: number | undefined,
  ) {
    super(message, operation);
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** Replaces every occurrence of each secret by `[redacted]`; secrets shorter than 4 characters are ignored (too many false hits). */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) {
    if (secret.length >= 4) result = result.split(secret).join('[redacted]');
  }
  return result;
}
