// What `terraform.workspace` is in a remote run on HCP Terraform. HashiCorp's remote backend and cloud integration
// docs: remote operations evaluate it to the HCP Terraform workspace's full name (a `prefix = "networking-"`
// workspace `networking-prod` gives "networking-prod" remotely, "prod" locally); before Terraform 1.1.0 the remote
// run used the single "default" CLI workspace internally, so it was "default" whatever the workspace.

export function remoteRunWorkspaceName(workspaceName: string, engineVersion: string): string {
  const [major = 0, minor = 0] = engineVersion.split('.').map((part) => Number.parseInt(part, 10));
  return major > 1 || (major === 1 && minor >= 1) ? workspaceName : 'default';
}
