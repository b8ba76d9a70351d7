/**
 * Configuration versions (notes §6): create one on a workspace, upload a .tar.gz to its pre-signed upload-url
 * (without the API token), and read its status until the service has processed the upload.
 */
import type { Clock } from './clock';
import { TimeoutError } from './errors';
import { segment } from './query';
import type { CallOptions, Requester } from './requester';
import { configurationVersionDocumentSchema } from './schemas/configurationVersions';
import type { ConfigurationVersion } from './schemas/configurationVersions';

export interface CreateConfigurationVersionInput {
  /** Upload queues a run by itself (default true on the service). */
  autoQueueRuns?: boolean;
  /** For plan-only runs. */
  speculative?: boolean;
  /** For saved-plan runs. */
  provisional?: boolean;
}

export interface WaitOptions extends CallOptions {
  /** Between two reads (default 1 s). */
  intervalMs?: number;
  /** Give up after this long (default 120 s). */
  maxWaitMs?: number;
}

const uploadTimeoutMs = 300_000;

export class ConfigurationVersionsApi {
  constructor(private readonly requester: Requester, private readonly clock: Clock) {}

  /** The returned version carries `upload-url` (only in this response). */
  async create(workspaceId: string, input: CreateConfigurationVersionInput = {}, options: CallOptions = {}): Promise<ConfigurationVersion> {
    const attributes: Record<string, boolean> = {};
    if (input.autoQueueRuns !== undefined) attributes['auto-queue-runs'] = input.autoQueueRuns;
    if (input.speculative !== undefined) attributes['speculative'] = input.speculative;
    if (input.provisional !== undefined) attributes['provisional'] = input.provisional;
    const result = await this.requester.call({
      operation: 'createConfigurationVersion',
      method: 'POST',
      path: `/workspaces/${segment(workspaceId)}/configuration-versions`,
      body: { data: { type: 'configuration-versions', attributes } },
      schema: configurationVersionDocumentSchema,
      ...options,
    });
    return result.data.data;
  }

  /** PUTs the archive (a .tar.gz with the configuration at its root) to the pre-signed URL. Never retried once sent. */
  async upload(uploadUrl: string, archive: Uint8Array, options: CallOptions = {}): Promise<void> {
    await this.requester.raw({
      operation: 'uploadConfiguration',
      method: 'PUT',
      url: new URL(uploadUrl),
      headers: { 'content-type': 'application/octet-stream', accept: 'application/json' },
      body: archive,
      signal: options.signal,
      timeoutMs: options.timeoutMs ?? uploadTimeoutMs,
    });
  }

  async get(configurationVersionId: string, options: CallOptions = {}): Promise<ConfigurationVersion> {
    const result = await this.requester.call({
      operation: 'getConfigurationVersion',
      method: 'GET',
      path: `/configuration-versions/${segment(configurationVersionId)}`,
      schema: configurationVersionDocumentSchema,
      ...options,
    });
    return result.data.data;
  }

  /**
   * Reads the version until its status leaves `pending`/`fetching` (the service processes uploads asynchronously;
   * a run created before `uploaded` is refused). Returns the version in whatever status it settled on.
   */
  async waitUntilProcessed(configurationVersionId: string, options: WaitOptions = {}): Promise<ConfigurationVersion> {
    const intervalMs = options.intervalMs ?? 1_000;
    const deadline = this.clock.now() + (options.maxWaitMs ?? 120_000);
    for (;;) {
      const version = await this.get(configurationVersionId, options);
      if (!['pending', 'fetching'].includes(version.attributes.status)) return version;
      if (this.clock.now() + intervalMs > deadline) {
        throw new TimeoutError(
          `Could not read the configuration version: it was still "${version.attributes.status}" after ${Math.round((options.maxWaitMs ?? 120_000) / 1000)} s.`,
          'getConfigurationVersion',
          options.maxWaitMs ?? 120_000,
        );
      }
      await this.clock.sleep(intervalMs, options.signal);
    }
  }
}
