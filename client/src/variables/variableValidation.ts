// Checks made before a variable is sent, so the user fixes the input where they typed it. No `vscode` import:
// unit-tested with node:test. HCL syntax is checked by the server's parser (validateHclValue), not here.

/**
 * Terraform variable names: a letter or underscore, then letters, digits, underscores and dashes. Environment
 * variable names: letters, digits and underscores, not starting with a digit (what a shell can export).
 */
export function keyProblem(key: string, category: string): string | undefined {
  if (key.length === 0) return 'Key: enter a name.';
  if (key.length > 128) return 'Key: at most 128 characters.';
  if (category === 'env') {
    return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? undefined : 'Key: an environment variable name uses letters, digits and _ and does not start with a digit.';
  }
  if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(key)) return 'Key: a Terraform variable name starts with a letter or _ and uses letters, digits, _ and -.';
  return undefined;
}

/** A key already on the workspace (the service keeps one per key and category). */
export function duplicateProblem(key: string, category: string, existing: ReadonlyArray<{ key: string; category: string }>): string | undefined {
  return existing.some((v) => v.key === key && v.category === category) ? `Key: the workspace already has a ${category === 'env' ? 'environment' : 'Terraform'} variable "${key}"; edit it instead.` : undefined;
}

export interface VariableEdit {
  value?: string;
  description?: string;
  hcl?: boolean;
  sensitive?: boolean;
}

/**
 * The service never gives a sensitive value back, so it can be made non-sensitive only together with a new
 * value (otherwise the old secret would become readable, or an empty value would replace it unseen).
 */
export function sensitivityProblem(current: { sensitive: boolean }, edit: VariableEdit): string | undefined {
  if (current.sensitive && edit.sensitive === false && edit.value === undefined) {
    return 'Sensitive: a sensitive variable can be made non-sensitive only by setting a new value at the same time.';
  }
  return undefined;
}

/** Whether the edit changes anything at all. */
export function isEmptyEdit(edit: VariableEdit): boolean {
  return Object.values(edit).every((value) => value === undefined);
}

/**
 * Expiry of a new organization token: empty = never expires; otherwise a date (YYYY-MM-DD, end of that day UTC)
 * or an ISO date-time, in the future. Returns the ISO string to send, or the problem.
 */
export function parseExpiry(input: string, now: number): { expiredAt?: string } | { problem: string } {
  const text = input.trim();
  if (text === '') return {};
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(text);
  const iso = dateOnly ? `${text}T23:59:59Z` : text;
  if (!dateOnly && !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text)) {
    return { problem: 'Expiry: write a date as YYYY-MM-DD (or an ISO date-time), or leave it empty for a token that never expires.' };
  }
  const time = Date.parse(iso);
  if (Number.isNaN(time) || (dateOnly && new Date(time).toISOString().slice(0, 10) !== text)) return { problem: `Expiry: ${text} is not a real date.` };
  if (time <= now) return { problem: 'Expiry: the date must be in the future.' };
  return { expiredAt: new Date(time).toISOString().replace(/\.000Z$/, 'Z') };
}
