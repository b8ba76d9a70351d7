// The steps of the configuration-driven runs tests (runs-outputs, runs-output-changes, runs-state-diff,
// runs-refactoring): a workspace of their own holding one main.tf, a plan run to its end on the manual clock, an
// apply, the plan's JSON as the CLI reads it, and a state written outside a run. Not a test file itself (no `.test.ts`).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { TerraformState } from '../../emulator/src/store/stateVersions';
import type { Workspace } from '../../emulator/src/store/model';
import type { Harness } from './runs-harness';

/** `harness` is called at each step: the tests start theirs in `before`, after these steps are made. */
export function configurationSteps(harness: () => Harness) {
  /** Replaces the workspace's configuration with one main.tf holding `text` (and the `others` files, a module's). */
  const upload = (workspaceId: string, text: string, others: Record<string, string> = {}) => {
    const h = harness();
    const files = new Map(Object.entries({ 'main.tf': text, ...others }).map(([name, content]) => [name, Buffer.from(content)]));
    h.store.configurationVersions.get(h.store.workspace(workspaceId)!.latestConfigurationVersionId!)!.files = files;
  };
  return {
    upload,
    /** A workspace (manual apply unless `fields` say otherwise) whose configuration is `text`; its id. */
    workspaceWith(name: string, text: string, fields: Partial<Workspace> = {}) {
      const { workspace } = harness().addWorkspace(name, { autoApply: false, ...fields });
      upload(workspace.id, text);
      return workspace.id;
    },
    /** A run queued with `attributes` and planned to its end; its id. */
    async plan(workspaceId: string, attributes: Record<string, unknown> = {}) {
      const h = harness();
      const run = await h.createRun(attributes, { workspaceId });
      await h.clock.advance(60_000);
      return run;
    },
    /** The run's plan or apply log as the service serves it, without its start and end of text marks. */
    async log(run: string, phase: 'plan' | 'apply') {
      const h = harness();
      const url = (await h.api('GET', `/api/v2/runs/${run}/${phase}`)).body.data.attributes['log-read-url'];
      return (await (await fetch(url)).text()).replace(/[\u0002\u0003]/g, '');
    },
    /** The run's plan JSON as the CLI reads it (`json-output`, or `json-output-redacted`). */
    async planJson(run: string, redacted = false): Promise<any> {
      const h = harness();
      const planId = (await h.run(run)).relationships.plan.data.id;
      const response = await fetch(`${h.url}/api/v2/plans/${planId}/json-output${redacted ? '-redacted' : ''}`, { headers: { Authorization: `Bearer ${h.tokens.owner}` } });
      return response.json();
    },
    /** Writes the next state version with `edit` made to the current one, as a `state push` would. */
    pushState(workspaceId: string, edit: (state: TerraformState) => void) {
      const h = harness();
      const current = h.store.stateVersions.current(workspaceId)!;
      const state = structuredClone(current.state!) as TerraformState;
      edit(state);
      state.serial = current.serial + 1;
      const bytes = Buffer.from(JSON.stringify(state));
      h.store.stateVersions.create(workspaceId, { serial: state.serial, lineage: current.lineage, md5: createHash('md5').update(bytes).digest('hex'), state: bytes, now: new Date(h.clock.nowMs()) });
    },
    async apply(run: string) {
      const h = harness();
      await h.api('POST', `/api/v2/runs/${run}/actions/apply`);
      await h.clock.advance(60_000);
      assert.equal((await h.run(run)).attributes.status, 'applied');
    },
  };
}
