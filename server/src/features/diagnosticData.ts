// Diagnostic codes (wire names) and the data each diagnostic carries, so a quick fix can act on it later without
// recomputing anything (LSP hands `data` back in the code action request).
import { z } from 'zod';
export const diagnosticSource = 'hcp-terraform';

export const diagnosticCodes = [
  'missing-value',
  'undeclared-workspace-variable',
  'undeclared-variable',
  'undeclared-tfvars-value',
  'invalid-hcl-value',
  'type-mismatch',
  'overridden-by-workspace',
  'sensitive-exposed',
  'workspace-link',
] as const;

export type DiagnosticCode = (typeof diagnosticCodes)[number];

/** The workspace variable a diagnostic is about (never its value). */
export interface WorkspaceVariableRef {
  workspaceId: string;
  variableId: string;
  key: string;
  category: string;
}

export type DiagnosticData =
  | { code: 'missing-value'; name: string; workspaceId: string }
  | { code: 'undeclared-workspace-variable'; variable: WorkspaceVariableRef; guessedType: string }
  | { code: 'undeclared-variable'; name: string }
  /** A tfvars entry no `variable` block declares; `guessedType` from its value when it is a literal. */
  | { code: 'undeclared-tfvars-value'; name: string; guessedType?: string }
  /** `plainStringFits`: the value taken as a plain string (HCL off) fits the declared type, so turning HCL off is a fix. */
  | { code: 'invalid-hcl-value'; variable: WorkspaceVariableRef; plainStringFits: boolean }
  /** `hclFlagFix`: switching the workspace variable's HCL flag to this value would make it fit. */
  | { code: 'type-mismatch'; name: string; variable?: WorkspaceVariableRef; hclFlagFix?: boolean }
  | { code: 'overridden-by-workspace'; name: string; variable: WorkspaceVariableRef }
  | { code: 'sensitive-exposed'; name: string; variable: WorkspaceVariableRef }
  /** The folder's link to its workspace: a problem in the block (serviceLink's codes), or `not-found` on the service. */
  | { code: 'workspace-link'; problem: string };

const variableRef = z.object({ workspaceId: z.string(), variableId: z.string(), key: z.string(), category: z.string() });
const dataSchema = z.discriminatedUnion('code', [
  z.object({ code: z.literal('missing-value'), name: z.string(), workspaceId: z.string() }),
  z.object({ code: z.literal('undeclared-workspace-variable'), variable: variableRef, guessedType: z.string() }),
  z.object({ code: z.literal('undeclared-variable'), name: z.string() }),
  z.object({ code: z.literal('undeclared-tfvars-value'), name: z.string(), guessedType: z.string().optional() }),
  z.object({ code: z.literal('invalid-hcl-value'), variable: variableRef, plainStringFits: z.boolean() }),
  z.object({ code: z.literal('type-mismatch'), name: z.string(), variable: variableRef.optional(), hclFlagFix: z.boolean().optional() }),
  z.object({ code: z.literal('overridden-by-workspace'), name: z.string(), variable: variableRef }),
  z.object({ code: z.literal('sensitive-exposed'), name: z.string(), variable: variableRef }),
  z.object({ code: z.literal('workspace-link'), problem: z.string() }),
]);

/** Reads `data` back from a client, which may have dropped or mangled it: anything unexpected yields undefined. */
export function readDiagnosticData(raw: unknown): DiagnosticData | undefined {
  const parsed = dataSchema.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}
