/** The public surface of the service API client. Import from here, not from the individual files. */
export { ServiceClient, defaultUserAgent } from './client';
export type { ServiceClientOptions } from './client';
export {
  ApiError,
  ServiceError,
  NetworkError,
  TimeoutError,
  CancelledError,
  MalformedResponseError,
  RateLimitedError,
  isApiError,
} from './errors';
export type { ApiErrorKind, ServiceErrorObject } from './errors';
export { operationLabels, meaningOf, specErrorRows } from './operations';
export type { OperationName } from './operations';
export { realClock } from './clock';
export type { Clock } from './clock';
export { iteratePages, iterateItems, collectItems } from './pagination';
export type { Page, PageFetcher, PageTarget, IterateOptions } from './pagination';
export type { HttpExchangeRecord } from './http';
export type { CallOptions, RequestWait, WaitReason } from './requester';
export type { RetryOptions } from './retry';
export type { RateWindow } from './rateLimiter';
export { serviceRateLimits } from './rateLimiter';
export {
  knownRunStatuses,
  finalRunStatuses,
  discardableRunStatuses,
  isKnownRunStatus,
  isFinalRunStatus,
  runStatusLabel,
} from './runStatuses';
export { allRunOperations } from './runs';
export type {
  CreateRunInput,
  RunListOptions,
  OrganizationRunListOptions,
  RunInclude,
  RunOperation,
  RunSource,
  RunStatusGroup,
  RunDocument,
  RunActionOptions,
} from './runs';
export { workspaceLock, currentRunId, includedCurrentRun } from './workspaces';
export type { WorkspaceListOptions, WorkspaceDocument, WorkspaceLock, WorkspaceInclude } from './workspaces';
export type { CreateVariableInput, VariableFields, VariableScope } from './variables';
export type { CreateChangeRequestInput } from './changeRequests';
export type { SubscriptionWithFeatureSet, GeneratedOrganizationToken } from './organization';
export type { CreateConfigurationVersionInput, WaitOptions } from './configurationVersions';
export type { LogChunk, FollowLogOptions } from './phases';
export type { PlanJsonResult } from './planOutput';
export { terraformPlanSchema } from './schemas/planJson';
export type { TerraformPlan, ResourceChange, PlanChange } from './schemas/planJson';
export type { PingResult, AccountDetails, TokenKind } from './account';
export { forceCancelAvailableAt, isForceCancelable } from './schemas/runs';
export type { Run } from './schemas/runs';
export type { Workspace } from './schemas/workspaces';
export type { Variable, VariableCategory } from './schemas/variables';
export { isArchived } from './schemas/changeRequests';
export type { ChangeRequest } from './schemas/changeRequests';
export type { Subscription, FeatureSet, Organization, OrganizationToken } from './schemas/organization';
export type { ConfigurationVersion } from './schemas/configurationVersions';
export type { Plan, Apply, CostEstimate } from './schemas/phases';
export type { Account } from './schemas/account';
export type { AnyResource, ResourceIdentifier, Relationship, Pagination } from './schemas/jsonapi';
export { relatedId, findIncluded } from './schemas/jsonapi';
