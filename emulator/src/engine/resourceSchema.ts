// The little the emulator knows of resource schemas, having no provider: every resource has a provider-set `id`,
// and `terraform_data` (built into Terraform, so the CLI knows its schema) computes `output` from `input` and is
// replaced when `triggers_replace` changes. Every other attribute of every other type is taken for an argument.

/** Attributes the plan knows only after apply because the type computes them (besides `id`). */
export function computedAfterApply(type: string): string[] {
  return type === 'terraform_data' ? ['output'] : [];
}

/** Attributes the provider sets, never the configuration: a plan does not compare them with the code. */
export function providerSetAttributes(type: string): string[] {
  return ['id', ...computedAfterApply(type)];
}

/** Arguments whose change replaces the instance instead of updating it in place (a provider's "forces replacement"). */
export function replacingArguments(type: string): string[] {
  return type === 'terraform_data' ? ['triggers_replace'] : [];
}
