// State versions as the service keeps them: per workspace, serial increasing, lineage kept, the current one the
// newest finalized. Created by the CLI (`terraform state push`, a local apply) or by a remote apply.
import { createHash } from 'node:crypto';
import { newId, randomBase62 } from './ids';
import { typeOf } from './valueType';

/** Terraform's state file, version 4 (only what the emulator reads is typed). */
export interface TerraformState {
  version: number;
  terraform_version?: string;
  serial: number;
  lineage: string;
  outputs?: Record<string, { value: unknown; type?: unknown; sensitive?: boolean }>;
  resources?: Array<{ mode?: string; type?: string; name?: string; module?: string; provider?: string; instances?: unknown[] }>;
  check_results?: unknown;
}

export interface StateVersionOutput {
  id: string;
  name: string;
  sensitive: boolean;
  type: unknown;
  value: unknown;
}

export interface StateVersionRecord {
  id: string;
  workspaceId: string;
  serial: number;
  lineage: string;
  md5: string;
  createdAt: Date;
  createdByUserId?: string;
  runId?: string;
  /** `pending` until its state file is uploaded, then `finalized`. */
  status: 'pending' | 'finalized';
  /** The raw state file and its parsed form, once uploaded. */
  stateBytes?: Buffer;
  state?: TerraformState;
  jsonStateBytes?: Buffer;
  outputs: StateVersionOutput[];
  /** Secrets of the upload and download URLs (no token needed, like the service's blob storage). */
  uploadSecret: string;
  jsonUploadSecret: string;
  downloadSecret: string;
  jsonDownloadSecret: string;
}

export class StateVersionError extends Error {
  constructor(
    readonly status: 409 | 422,
    message: string,
  ) {
    super(message);
  }
}

export class StateVersions {
  private readonly records = new Map<string, StateVersionRecord>();

  get(id: string): StateVersionRecord | undefined {
    return this.records.get(id);
  }

  /**
   * Newest first, by creation rather than serial: a forced push may go back to an older serial, and what it pushed
   * is then the current state. Versions created in the same millisecond keep their creation order reversed.
   */
  list(workspaceId: string): StateVersionRecord[] {
    return [...this.records.values()]
      .filter((r) => r.workspaceId === workspaceId)
      .reverse()
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  }

  /** The newest finalized state version. */
  current(workspaceId: string): StateVersionRecord | undefined {
    return this.list(workspaceId).find((r) => r.status === 'finalized');
  }

  bySecret(secret: string): { record: StateVersionRecord; kind: 'upload' | 'json-upload' | 'download' | 'json-download' } | undefined {
    for (const record of this.records.values()) {
      if (record.uploadSecret === secret) return { record, kind: 'upload' };
      if (record.jsonUploadSecret === secret) return { record, kind: 'json-upload' };
      if (record.downloadSecret === secret) return { record, kind: 'download' };
      if (record.jsonDownloadSecret === secret) return { record, kind: 'json-download' };
    }
    return undefined;
  }

  /**
   * A new state version: serial above the current one's, the same lineage (any lineage for the first), unless
   * `force` (`terraform state push -force`), which skips both checks as the service does. With the state file it is
   * finalized at once; without, it waits for its upload.
   */
  create(workspaceId: string, input: { serial: number; md5: string; lineage?: string; force?: boolean; state?: Buffer; jsonState?: Buffer; runId?: string; createdByUserId?: string; now: Date }): StateVersionRecord {
    const current = this.current(workspaceId);
    const checked = input.force ? undefined : current;
    if (checked && input.serial <= checked.serial) throw new StateVersionError(409, `serial ${input.serial} is not greater than the current state version's (${checked.serial}).`);
    if (checked && input.lineage && input.lineage !== checked.lineage) throw new StateVersionError(409, `lineage ${input.lineage} differs from the current state's (${checked.lineage}).`);
    const record: StateVersionRecord = {
      id: newId('sv'),
      workspaceId,
      serial: input.serial,
      lineage: input.lineage ?? current?.lineage ?? '',
      md5: input.md5,
      createdAt: input.now,
      ...(input.createdByUserId ? { createdByUserId: input.createdByUserId } : {}),
      ...(input.runId ? { runId: input.runId } : {}),
      status: 'pending',
      outputs: [],
      uploadSecret: randomBase62(40),
      jsonUploadSecret: randomBase62(40),
      downloadSecret: randomBase62(40),
      jsonDownloadSecret: randomBase62(40),
    };
    if (input.state) this.finalize(record, input.state);
    if (input.jsonState) record.jsonStateBytes = input.jsonState;
    this.records.set(record.id, record);
    return record;
  }

  /** Takes the state file (its md5 must match the one announced) and finalizes the version. */
  finalize(record: StateVersionRecord, bytes: Buffer): void {
    const md5 = createHash('md5').update(bytes).digest('hex');
    if (record.md5 && md5 !== record.md5) throw new StateVersionError(422, `the state's MD5 is ${md5}, not the announced ${record.md5}.`);
    let state: TerraformState;
    try {
      state = JSON.parse(bytes.toString('utf8')) as TerraformState;
    } catch {
      throw new StateVersionError(422, 'the state is not JSON.');
    }
    if (typeof state !== 'object' || state === null || typeof state.serial !== 'number') throw new StateVersionError(422, 'the state has no serial: it is not a Terraform state file.');
    record.stateBytes = bytes;
    record.state = state;
    if (!record.lineage && typeof state.lineage === 'string') record.lineage = state.lineage;
    record.outputs = Object.entries(state.outputs ?? {}).map(([name, output]) => ({
      id: newId('wsout'),
      name,
      sensitive: output.sensitive === true,
      type: output.type ?? typeOf(output.value),
      value: output.value,
    }));
    record.status = 'finalized';
  }

  /** Whether the current state still tracks a managed resource instance (what a safe delete refuses to drop). */
  managesResources(workspaceId: string): boolean {
    const resources = this.current(workspaceId)?.state?.resources ?? [];
    return resources.some((resource) => resource.mode !== 'data' && (resource.instances?.length ?? 0) > 0);
  }

  /** Forgets every state version of a deleted workspace, with its upload and download URLs. */
  deleteWorkspace(workspaceId: string): void {
    for (const [id, record] of this.records) if (record.workspaceId === workspaceId) this.records.delete(id);
  }

  clear(): void {
    this.records.clear();
  }
}
