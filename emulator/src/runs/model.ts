// The runs module's records: runs and the resources that hang off them (plans, applies, cost estimates, policy
// checks, task stages). Plain data; wire names (kebab-case) live only in the serializers.
// Statuses are plain strings on purpose: the service owns that vocabulary, and a value this module does not know
// must pass through untouched.
import type { DeclaredConfiguration } from '../engine/configuration';
import type { DeleteReason } from '../engine/deleteReasons';

export type RunStatus = string;

export interface RunVariable {
  key: string;
  value: string;
}

export interface RunComment {
  body: string;
  userId: string;
  at: Date;
}

/**
 * One resource change in a simulated plan. `replace` counts as one addition and one destruction; `forget` (a
 * `removed` block with `destroy = false`) as neither: the state lets the object go, which is left as it is.
 */
export interface PlannedChange {
  address: string;
  action: 'create' | 'update' | 'delete' | 'replace' | 'forget';
  /** A `replace` that creates the new object first, then destroys the old (`lifecycle { create_before_destroy }`). */
  createBeforeDestroy?: true;
  /** The address the state held the instance at before a `moved` block renamed it (Terraform's PrevRunAddr). */
  previousAddress?: string;
  /**
   * Why a delete happens, for one the configuration caused (Terraform's action_reason); a `moved` target that is
   * not declared is `delete_because_no_move_target`.
   */
  actionReason?: DeleteReason | 'delete_because_no_move_target';
  /**
   * The instance's attributes before and after (null: it does not exist on that side), for plans that followed the
   * configuration (runs/changeValues.ts); absent for the seeded outcomes, whose attributes are not simulated.
   */
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  /** Attributes of `after` known only after apply. */
  afterUnknown?: string[];
  /** Attributes whose values are sensitive. */
  sensitive?: string[];
}

/** A root module output as the plan sees it: its value in the current state, and what the configuration makes it. */
export interface PlannedOutput {
  name: string;
  before: unknown;
  /** Absent when the value is known only after apply. */
  after?: unknown;
  sensitive: boolean;
  /** What the plan does to the output, decided as Terraform's node_output.go does (see plannedOutputs). */
  action: 'create' | 'update' | 'delete' | 'no-op';
}

/** An instance as the state holds it, at the address the plan gives it (and the one a move renamed it from). */
export interface UnchangedInstance {
  address: string;
  attributes: Record<string, unknown>;
  sensitive: string[];
  previousAddress?: string;
}

export interface RunRecord {
  id: string; // run-…
  workspaceId: string;
  organization: string;
  status: RunStatus;
  /** Sparse: one `<state>-at` key per state reached, in the order reached, plus `plan-queueable-at`. */
  statusTimestamps: Record<string, string>;
  createdAt: Date;
  updatedAt: Date;
  message: string;
  /** Wire value, e.g. `svc-api` (spec §2.3 run sources). */
  source: string;
  triggerReason: string;
  isDestroy: boolean;
  refresh: boolean;
  refreshOnly: boolean;
  planOnly: boolean;
  savePlan: boolean;
  /** Whether the run will confirm itself after planning: requested (or the workspace default) and the queuer may apply. */
  autoApply: boolean;
  allowEmptyApply: boolean;
  allowConfigGeneration: boolean;
  debuggingMode: boolean;
  targetAddrs: string[] | null;
  replaceAddrs: string[] | null;
  variables: RunVariable[];
  engineVersion: string;
  configurationVersionId: string;
  createdByUserId: string;
  confirmedByUserId: string | null;
  canceledByUserId: string | null;
  comments: RunComment[];
  planId: string;
  applyId: string;
  costEstimateId: string | null;
  policyCheckIds: string[];
  taskStageIds: string[];
  /** Set when planning starts: the configuration check found errors, so the plan will fail. */
  planFailed: boolean;
  /** Filled when planning ends. */
  hasChanges: boolean;
  changes: PlannedChange[];
  /** What the uploaded configuration declares, when the plan followed it (engine/configuration.ts). */
  configuration?: DeclaredConfiguration;
  /** The root module's outputs, when the plan followed the configuration. */
  outputs?: PlannedOutput[];
  /**
   * Declared instances the plan leaves as they are, with their state's attributes: plan JSON lists them as `no-op`,
   * as Terraform does, so a reader can tell "1 of 3 instances changes" from "the only instance changes".
   */
  unchanged?: UnchangedInstance[];
  /**
   * Terraform's drift the emulator can tell (context_plan.go driftedResources): in a refresh-only plan, each instance
   * a move renamed, `no-op` at its new address with the one it moved from. Plan JSON's `resource_drift`, drawn by the
   * CLI as "# a has moved to b" under "Objects have changed outside of Terraform".
   */
  drifted?: UnchangedInstance[];
  /**
   * The instances `moved` blocks rename, old address → new, worked out when planning starts: the plan reads the state
   * renamed, and the apply writes it renamed (runs/stateMoves.ts), changed or not.
   */
  moves?: Array<{ from: string; to: string }>;
  canceledAt: Date | null;
  /** Set by a normal cancel: the end of the force-cancel cool-off. */
  forceCancelAvailableAt: Date | null;
  /** A soft-failed policy check was overridden: the run may leave `policy_override`. */
  policyOverridden: boolean;
  /** A user confirmed the run (apply action); a paused run moves to `confirmed`. */
  confirmRequested: boolean;
  /** Set by a normal cancel while planning or applying: what the interrupted process finishes before it stops. */
  interruption?: Interruption;
  /**
   * A saved plan whose workspace another run applied after it started planning: its plan no longer starts from the
   * workspace's state, so it is discarded as soon as it may be (savedPlans.ts).
   */
  planOutdated?: boolean;
  /** When the run joined its workspace's queue (creation, or confirmation of a saved plan). */
  queuedAt: number;
}

export interface LogRecord {
  /** Unauthenticated secret in the log-read-url, like the service's blob URLs. */
  secret: string;
  lines: string[];
  /** Clock ms when the phase started producing output; null = not started. */
  startedAtMs: number | null;
  /** Expected length of the phase in clock ms: output is revealed in proportion to elapsed time. */
  expectedMs: number;
  /** Set when the phase reached a final status: the whole text is visible and ETX is appended. */
  complete: boolean;
}

export interface PlanRecord {
  id: string; // plan-…
  runId: string;
  status: string;
  statusTimestamps: Record<string, string>;
  hasChanges: boolean;
  resourceAdditions: number | null;
  resourceChanges: number | null;
  resourceDestructions: number | null;
  resourceImports: number | null;
  /** Set when planning starts: whether its log is Terraform's JSON lines (the workspace's setting then). */
  structuredRunOutput?: boolean;
  log: LogRecord;
}

export interface ApplyRecord {
  id: string; // apply-…
  runId: string;
  status: string;
  statusTimestamps: Record<string, string>;
  resourceAdditions: number | null;
  resourceChanges: number | null;
  resourceDestructions: number | null;
  resourceImports: number | null;
  log: LogRecord;
  /** The resource operations the apply log narrates, in order; set when applying starts (an interrupt reads them). */
  operations: ApplyOperation[];
}

/**
 * One resource operation of an apply and the log lines that start and complete it. A replacement is one operation
 * (`replace`) in the plain text log, a `delete` then a `create` of the same change in the structured one.
 */
export interface ApplyOperation {
  change: PlannedChange;
  action: PlannedChange['action'];
  startLine: number;
  completeLine: number;
}

/** A normal cancel reached the running plan or apply (interruption.ts); what the process does before it stops. */
export interface Interruption {
  /** Operations done before the interrupt, and those in flight then, which finish before the process stops. */
  completed: ApplyOperation[];
  inFlight: ApplyOperation[];
  /** The lines the process writes as it stops: the operations in flight completing, then Terraform's error. */
  closingLines: string[];
}

export interface CostEstimateRecord {
  id: string; // ce-…
  runId: string;
  status: string;
  statusTimestamps: Record<string, string>;
  errorMessage: string | null;
  priorMonthlyCost: string | null;
  proposedMonthlyCost: string | null;
  deltaMonthlyCost: string | null;
  matchedResourcesCount: number | null;
  unmatchedResourcesCount: number | null;
}

export interface PolicyCheckRecord {
  id: string; // polchk-…
  runId: string;
  status: string; // pending, queued, passed, soft_failed, hard_failed, overridden, errored, canceled, unreachable
  statusTimestamps: Record<string, string>;
  passed: number;
  advisoryFailed: number;
  softFailed: number;
  hardFailed: number;
  /** Policy name → whether it passed, with its enforcement level (for the output text). */
  policies: Array<{ name: string; enforcement: string; passed: boolean }>;
}

export interface TaskStageRecord {
  id: string; // ts-…
  runId: string;
  stage: string; // pre_plan, post_plan, pre_apply, post_apply
  status: string; // pending, running, passed, failed, errored, canceled, unreachable
  statusTimestamps: Record<string, string>;
  results: Array<{ name: string; enforcement: string; passed: boolean }>;
  createdAt: Date;
}
