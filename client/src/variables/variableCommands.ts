// Create, Edit and Delete Variable and Go to Declaration: from the Variables view's menus and from the palette
// (quick picks for the workspace, the variable and every input). Inputs are checked before anything is sent: the key's
// format, an HCL value by the server's parser, and the service's rule that a sensitive variable becomes non-sensitive
// only with a new value. A sensitive value is typed in a password box and never shown, logged or kept.
import * as vscode from 'vscode';
import type { VariableSummary } from '../../../server/src/protocol';
import { validateHclValueRequest } from '../../../server/src/protocol';
import type { ClientDeps } from '../clientDeps';
import { registerCommands } from '../commands';
import type { WorkspaceRef } from '../runs/model';
import { workspaceRefOf } from '../runs/model';
import { errorMessage } from '../serverAccess';
import { prompts } from '../userPrompts';
import { failureMessage } from '../views/failure';
import type { ViewWorkspaces } from '../views/viewWorkspaces';
import { categoryLabels } from './variablePresentation';
import { duplicateProblem, isEmptyEdit, keyProblem, sensitivityProblem, type VariableEdit } from './variableValidation';
import type { VariablesNode, VariablesTree } from './variablesTree';
import { deleteVariableQuestion } from '../../../server/src/commands/destructiveQuestions';

type VariableNode = Extract<VariablesNode, { kind: 'variable' }>;

export function registerVariableCommands(context: vscode.ExtensionContext, deps: ClientDeps, tree: VariablesTree, workspaces: ViewWorkspaces): void {
  const chosen = async (node: unknown, title: string): Promise<VariableNode | undefined> => variableNodeOf(node) ?? pickVariable(tree, workspaces, title);
  registerCommands(context, {
    'hcpTerraform.refreshVariables': () => tree.refresh(),
    'hcpTerraform.createVariable': async (node?: unknown) => {
      const workspace = workspaceRefOf(node) ?? (await pickWorkspace(workspaces, 'Create Variable'));
      return workspace ? createVariable(deps, tree, workspace) : undefined;
    },
    'hcpTerraform.editVariable': async (node?: unknown) => {
      const target = await chosen(node, 'Edit Variable');
      return target ? editVariable(deps, tree, target) : undefined;
    },
    'hcpTerraform.deleteVariable': async (node?: unknown) => {
      const target = await chosen(node, 'Delete Variable');
      return target ? deleteVariable(deps, tree, target) : undefined;
    },
    'hcpTerraform.goToVariableDeclaration': async (node?: unknown) => {
      const target = variableNodeOf(node);
      if (!target?.declaration) return undefined;
      const position = new vscode.Position(target.declaration.line, 0);
      return vscode.window.showTextDocument(vscode.Uri.parse(target.declaration.uri), { selection: new vscode.Range(position, position), preview: true });
    },
  });
}

function variableNodeOf(value: unknown): VariableNode | undefined {
  const node = value as Partial<VariableNode> | undefined;
  return node?.kind === 'variable' && node.variable && node.workspace ? (node as VariableNode) : undefined;
}

async function pickWorkspace(workspaces: ViewWorkspaces, title: string): Promise<WorkspaceRef | undefined> {
  const known = await workspaces.list();
  if (known.length === 0) {
    void prompts.warning('HCP Terraform: no workspace is linked or pinned. Link a folder to a workspace, or pin one in the Runs view.');
    return undefined;
  }
  if (known.length === 1) return known[0];
  return (await prompts.quickPick(known.map((w) => ({ label: w.name, description: w.organization, workspace: w })), { title: `${title}: which workspace?`, placeHolder: 'Workspace' }))?.workspace;
}

async function pickVariable(tree: VariablesTree, workspaces: ViewWorkspaces, title: string): Promise<VariableNode | undefined> {
  const workspace = await pickWorkspace(workspaces, title);
  if (!workspace) return undefined;
  let nodes: VariableNode[];
  try {
    nodes = await tree.variableNodes(workspace);
  } catch (error) {
    void prompts.error(failureMessage(`list the variables of ${workspace.name}`, error));
    return undefined;
  }
  if (nodes.length === 0) {
    void prompts.information(`HCP Terraform: ${workspace.name} has no variables.`);
    return undefined;
  }
  const picked = await prompts.quickPick(
    nodes.map((node) => ({ label: node.variable.key, description: [categoryLabels[node.variable.category] ?? node.variable.category, node.variable.sensitive ? 'sensitive' : undefined].filter(Boolean).join(' · '), node })),
    { title: `${title}: which variable of ${workspace.name}?`, placeHolder: 'Variable' },
  );
  return picked?.node;
}

/** Asks for a value: masked when sensitive; an HCL one is checked by the server's parser as it is typed. */
async function askValue(deps: ClientDeps, key: string, options: { hcl: boolean; sensitive: boolean; current?: string }): Promise<string | undefined> {
  return prompts.inputBox({
    title: `Value of "${key}"`,
    prompt: options.hcl ? 'An HCL expression, e.g. ["a", "b"] or { port = 80 } (strings need quotes)' : options.sensitive ? 'Write-only: the service never shows it again' : 'The value, as text',
    password: options.sensitive,
    value: options.sensitive ? '' : (options.current ?? ''),
    ignoreFocusOut: true,
    validateInput: options.hcl ? (value) => hclProblem(deps, value) : undefined,
  });
}

/** The server's verdict on an HCL value, as a validation message naming the field (never repeating the value). */
export async function hclProblem(deps: ClientDeps, value: string): Promise<string | undefined> {
  try {
    const verdict = await deps.server.request(validateHclValueRequest, { value });
    return verdict.valid ? undefined : `Value: ${verdict.message}`;
  } catch (error) {
    return `Value: could not check the HCL (${errorMessage(error)}).`;
  }
}

async function createVariable(deps: ClientDeps, tree: VariablesTree, workspace: WorkspaceRef): Promise<VariableSummary | undefined> {
  const title = `Create Variable in ${workspace.name}`;
  const category = await prompts.quickPick(
    [
      { label: 'Terraform variable', description: 'engine: sets var.<key>', category: 'engine' },
      { label: 'Environment variable', description: 'env: exported to the run', category: 'env' },
    ],
    { title, placeHolder: 'Category' },
  );
  if (!category) return undefined;
  let existing: Array<{ key: string; category: string }> = [];
  try {
    existing = (await tree.variableNodes(workspace)).map((node) => node.variable);
  } catch {
    // The service checks duplicates too; the list only helps say it earlier.
  }
  const key = await prompts.inputBox({ title, prompt: 'Key', placeHolder: category.category === 'env' ? 'AWS_REGION' : 'instance_count', ignoreFocusOut: true, validateInput: (value) => keyProblem(value, category.category) ?? duplicateProblem(value, category.category, existing) });
  if (key === undefined) return undefined;
  const flagItems = [
    ...(category.category === 'engine' ? [{ label: 'HCL', description: 'the value is an HCL expression (lists, maps, numbers)', flag: 'hcl' as const }] : []),
    { label: 'Sensitive', description: 'write-only: never shown again', flag: 'sensitive' as const },
  ];
  const flags = await prompts.quickPickMany(flagItems, { title: `${title}: options for "${key}"`, placeHolder: 'Tick what applies (none is fine)' });
  if (flags === undefined) return undefined;
  const hcl = flags.some((f) => f.flag === 'hcl');
  const sensitive = flags.some((f) => f.flag === 'sensitive');
  const value = await askValue(deps, key, { hcl, sensitive });
  if (value === undefined) return undefined;
  const description = await prompts.inputBox({ title, prompt: `Description of "${key}" (optional)`, ignoreFocusOut: true });
  if (description === undefined) return undefined;
  try {
    const created = await deps.server.command('createVariable', { hostname: workspace.hostname, workspaceId: workspace.id, key, category: category.category, value, hcl, sensitive, ...(description ? { description } : {}) });
    tree.refresh();
    void vscode.window.setStatusBarMessage(`HCP Terraform: variable ${key} created in ${workspace.name}`, 5_000);
    return created;
  } catch (error) {
    void prompts.error(failureMessage(`create the variable "${key}"`, error));
    return undefined;
  }
}

async function editVariable(deps: ClientDeps, tree: VariablesTree, node: VariableNode): Promise<VariableSummary | undefined> {
  const { variable, workspace } = node;
  const title = `Edit Variable "${variable.key}" of ${workspace.name}`;
  const choices = [
    { label: 'Value', description: variable.sensitive ? 'set a new value (the current one cannot be read)' : 'change the value', field: 'value' as const },
    { label: 'Description', description: variable.description ?? 'none yet', field: 'description' as const },
    ...(variable.category === 'env' ? [] : [{ label: variable.hcl ? 'Turn HCL off' : 'Turn HCL on', description: 'how the value is read', field: 'hcl' as const }]),
    variable.sensitive
      ? { label: 'Make non-sensitive', description: 'only with a new value, as the service requires', field: 'sensitive' as const }
      : { label: 'Make sensitive', description: 'write-only from then on', field: 'sensitive' as const },
  ];
  const fields = await prompts.quickPickMany(choices, { title, placeHolder: 'What to change' });
  if (!fields || fields.length === 0) return undefined;
  const wants = (field: string) => fields.some((f) => f.field === field);
  const edit: VariableEdit = {};
  if (wants('hcl')) edit.hcl = !variable.hcl;
  if (wants('sensitive')) edit.sensitive = !variable.sensitive;
  const hcl = edit.hcl ?? variable.hcl;
  const sensitive = edit.sensitive ?? variable.sensitive;
  // Making a sensitive variable readable needs a new value: ask for it even if "Value" was not ticked.
  if (wants('value') || sensitivityProblem(variable, edit) || (edit.hcl === true && !variable.sensitive && variable.value !== undefined && (await hclProblem(deps, variable.value)))) {
    const value = await askValue(deps, variable.key, { hcl, sensitive, ...(variable.value !== undefined ? { current: variable.value } : {}) });
    if (value === undefined) return undefined;
    edit.value = value;
  }
  if (wants('description')) {
    const description = await prompts.inputBox({ title, prompt: `Description of "${variable.key}"`, value: variable.description ?? '', ignoreFocusOut: true });
    if (description === undefined) return undefined;
    edit.description = description;
  }
  const problem = sensitivityProblem(variable, edit);
  if (problem) {
    void prompts.error(`HCP Terraform: ${problem}`);
    return undefined;
  }
  if (isEmptyEdit(edit)) return undefined;
  try {
    const updated = await deps.server.command('updateVariable', {
      hostname: workspace.hostname,
      workspaceId: workspace.id,
      variableId: variable.id,
      ...edit,
      // The server checks an HCL value with its parser only when it knows the value is HCL.
      ...(edit.value !== undefined ? { hcl } : {}),
    });
    tree.refresh();
    return updated;
  } catch (error) {
    void prompts.error(failureMessage(`update the variable "${variable.key}"`, error));
    return undefined;
  }
}

async function deleteVariable(deps: ClientDeps, tree: VariablesTree, node: VariableNode): Promise<{ deleted: true } | undefined> {
  const { variable, workspace } = node;
  const question = deleteVariableQuestion({ key: variable.key, sensitive: variable.sensitive, declared: node.declaration !== undefined }, workspace.name);
  if ((await prompts.modal(question.message, question.detail, question.button)) !== question.button) return undefined;
  try {
    const result = await deps.server.command('deleteVariable', { hostname: workspace.hostname, workspaceId: workspace.id, variableId: variable.id });
    tree.refresh();
    return result;
  } catch (error) {
    void prompts.error(failureMessage(`delete the variable "${variable.key}"`, error));
    return undefined;
  }
}
