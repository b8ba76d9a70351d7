/**
 * A finished plan's JSON (Terraform's JSON plan format). `GET /plans/:id/json-output` answers 204 while the plan
 * runs, then 307 to a short-lived URL that may be on another origin: the transport follows it and drops the token
 * on any hop off the service's origin (http.ts). Callers that may only read redacted plans get 403/404 there, so
 * `json-output-redacted` (200, direct) is the fallback. A finished plan never changes: answers are cached by id.
 */
import { ServiceError } from './errors';
import { segment } from './query';
import type { CallOptions, Requester } from './requester';
import { terraformPlanSchema } from './schemas/planJson';
import type { TerraformPlan } from './schemas/planJson';

export interface PlanJsonResult {
  /** `pending`: the plan has not finished (204). */
  status: 'finished' | 'pending';
  plan?: TerraformPlan;
  /** Read from json-output-redacted: sensitive values are already replaced by the service. */
  redacted?: boolean;
}

/** How many finished plans are kept (each can be large). */
const cacheSize = 20;

export class PlanOutputApi {
  private readonly cache = new Map<string, Promise<PlanJsonResult>>();

  constructor(private readonly requester: Requester) {}

  /** The plan's JSON; `{status: 'pending'}` while it is not finished. Malformed bodies reject with a MalformedResponseError. */
  getPlanJson(planId: string, options: CallOptions = {}): Promise<PlanJsonResult> {
    const cached = this.cache.get(planId);
    if (cached) return cached;
    const reading = this.read(planId, options);
    this.cache.set(planId, reading);
    while (this.cache.size > cacheSize) this.cache.delete(this.cache.keys().next().value as string);
    // Only a finished plan is worth keeping: a pending one or a failure is asked again next time.
    reading.then(
      (result) => {
        if (result.status !== 'finished') this.cache.delete(planId);
      },
      () => this.cache.delete(planId),
    );
    return reading;
  }

  private async read(planId: string, options: CallOptions): Promise<PlanJsonResult> {
    try {
      const result = await this.requester.call({
        operation: 'readPlanJson',
        method: 'GET',
        path: `/plans/${segment(planId)}/json-output`,
        schema: terraformPlanSchema,
        allowNoContent: true,
        ...options,
      });
      if (result.status === 204) return { status: 'pending' };
      return { status: 'finished', plan: result.data };
    } catch (error) {
      // A caller allowed only redacted plans (or a service without the unredacted endpoint) is refused here.
      if (!(error instanceof ServiceError) || (error.status !== 403 && error.status !== 404)) throw error;
    }
    const result = await this.requester.call({
      operation: 'readRedactedPlanJson',
      method: 'GET',
      path: `/plans/${segment(planId)}/json-output-redacted`,
      schema: terraformPlanSchema,
      allowNoContent: true,
      ...options,
    });
    if (result.status === 204) return { status: 'pending' };
    return { status: 'finished', plan: result.data, redacted: true };
  }
}
