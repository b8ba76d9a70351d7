/**
 * A run's phases — plan, apply, cost estimate — and their logs. Logs live at a pre-signed `log-read-url`: it is
 * read WITHOUT the API token (it may be on another host), in byte ranges (`offset`, `limit`), and framed by
 * STX (0x02) at the start and ETX (0x03) once the phase has ended (notes §5.4).
 */
import type { Clock } from './clock';
import { segment } from './query';
import type { CallOptions, Requester } from './requester';
import { applyDocumentSchema, costEstimateDocumentSchema, planDocumentSchema, policyCheckListDocumentSchema } from './schemas/phases';
import type { Apply, CostEstimate, Plan, PolicyCheck } from './schemas/phases';

const startOfText = 0x02;
const endOfText = 0x03;

export interface LogChunk {
  /** The text read, with the STX/ETX framing removed. */
  text: string;
  /** Where the next read starts (bytes of the raw stream consumed so far). */
  nextOffset: number;
  /** True once ETX was seen: the log is complete. */
  complete: boolean;
}

export interface FollowLogOptions extends CallOptions {
  /** Bytes per read (default: all that is available). */
  limit?: number;
  /** First wait after a read that brought nothing new (default 500 ms), doubled up to maxPollMs (default 2 s). */
  minPollMs?: number;
  maxPollMs?: number;
}

export class PhasesApi {
  constructor(private readonly requester: Requester, private readonly clock: Clock) {}

  /**
   * Yields the log's text as it grows, until the phase ends (ETX). Waits between empty reads back off like
   * go-tfe's LogReader (500 ms → 2 s); stop iterating or abort the signal to stop following.
   */
  async *followLog(logReadUrl: string, options: FollowLogOptions = {}): AsyncGenerator<string> {
    const minPollMs = options.minPollMs ?? 500;
    const maxPollMs = options.maxPollMs ?? 2_000;
    let offset = 0;
    let waitMs = minPollMs;
    for (;;) {
      const chunk = await this.readLog(logReadUrl, { offset, limit: options.limit }, options);
      offset = chunk.nextOffset;
      if (chunk.text.length > 0) {
        waitMs = minPollMs;
        yield chunk.text;
      }
      if (chunk.complete) return;
      if (chunk.text.length === 0) {
        await this.clock.sleep(waitMs, options.signal);
        waitMs = Math.min(maxPollMs, waitMs * 2);
      }
    }
  }

  async getPlan(planId: string, options: CallOptions = {}): Promise<Plan> {
    const result = await this.requester.call({
      operation: 'getPlan', method: 'GET', path: `/plans/${segment(planId)}`, schema: planDocumentSchema, ...options,
    });
    return result.data.data;
  }

  async getApply(applyId: string, options: CallOptions = {}): Promise<Apply> {
    const result = await this.requester.call({
      operation: 'getApply', method: 'GET', path: `/applies/${segment(applyId)}`, schema: applyDocumentSchema, ...options,
    });
    return result.data.data;
  }

  async getCostEstimate(costEstimateId: string, options: CallOptions = {}): Promise<CostEstimate> {
    const result = await this.requester.call({
      operation: 'getCostEstimate',
      method: 'GET',
      path: `/cost-estimates/${segment(costEstimateId)}`,
      schema: costEstimateDocumentSchema,
      ...options,
    });
    return result.data.data;
  }

  /** A run's policy checks (`GET /runs/:id/policy-checks`); empty when the run has none. */
  async listPolicyChecks(runId: string, options: CallOptions = {}): Promise<PolicyCheck[]> {
    const result = await this.requester.call({
      operation: 'listPolicyChecks',
      method: 'GET',
      path: `/runs/${segment(runId)}/policy-checks`,
      schema: policyCheckListDocumentSchema,
      ...options,
    });
    return result.data.data;
  }

  /**
   * Reads the log from `offset` (bytes of the raw stream). Call again with `nextOffset` until `complete`.
   * A multi-byte character split across two reads is decoded once both halves arrived: only whole characters
   * are returned, and `nextOffset` points at the first byte not yet decoded.
   */
  async readLog(logReadUrl: string, position: { offset?: number; limit?: number } = {}, options: CallOptions = {}): Promise<LogChunk> {
    const offset = position.offset ?? 0;
    const url = new URL(logReadUrl);
    url.searchParams.set('offset', String(offset));
    if (position.limit !== undefined) url.searchParams.set('limit', String(position.limit));
    const response = await this.requester.raw({
      operation: 'readLog',
      method: 'GET',
      url,
      headers: { accept: 'text/plain' },
      signal: options.signal,
      timeoutMs: options.timeoutMs,
    });
    return decodeLogChunk(response.body, offset);
  }
}

/** Strips the framing and keeps only whole UTF-8 characters; exported for tests. */
export function decodeLogChunk(bytes: Buffer, offset: number): LogChunk {
  let start = 0;
  let end = bytes.length;
  if (offset === 0 && bytes[0] === startOfText) start = 1;
  const complete = end > start && bytes[end - 1] === endOfText;
  if (complete) end -= 1;
  const wholeEnd = complete ? end : lastWholeCharacterEnd(bytes, start, end);
  return {
    text: bytes.subarray(start, wholeEnd).toString('utf8'),
    nextOffset: offset + (complete ? bytes.length : wholeEnd),
    complete,
  };
}

/** The end of the last complete UTF-8 sequence in bytes[start, end). */
function lastWholeCharacterEnd(bytes: Buffer, start: number, end: number): number {
  // Walk back over at most 3 continuation bytes to the lead byte of the last sequence.
  let lead = end - 1;
  while (lead >= start && lead > end - 4 && (bytes[lead]! & 0xc0) === 0x80) lead--;
  if (lead < start) return end;
  const byte = bytes[lead]!;
  const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
  return lead + length <= end ? end : lead;
}
