// The configurations the demo seed's workspaces plan from (the emulator's engine reads them: emulator/src/engine/).
// Texts, not files read at run time: the emulator is bundled into dist/emulator.js, far from test/fixtures/.
//
// demo-app: the .tf files of test/fixtures/demo-app/ (the folder the demo opens), byte for byte — a unit test
// (test/emulator/seeds.test.ts) fails when they and the fixture differ. The fixture's deliberate mistakes are what
// the language server points out locally; the repository the workspace plans from (VCS acme/demo-app) also holds
// `pipeline.tf` and `pipeline.auto.tfvars`, which declare `owner_email` and give `environment` and `allowed_cidrs`
// their values, so the workspace's runs plan where the local folder would not (the local tfvars are not uploaded).

/** The fixture's `.tf` files, as in test/fixtures/demo-app/. */
export const demoAppFixtureFiles: Readonly<Record<string, string>> = {
  'main.tf': `# A small web app, modelled without any cloud provider: every resource here plans and applies offline.
terraform {
  required_version = ">= 1.6.0"

  required_providers {
    random = {
      source  = "hashicorp/random"
      version = "~> 3.6"
    }
    null = {
      source  = "hashicorp/null"
      version = "~> 3.2"
    }
    local = {
      source  = "hashicorp/local"
      version = "~> 2.5"
    }
  }

  cloud {
    organization = "acme-demo"

    workspaces {
      name = "demo-app"
    }
  }
}

locals {
  name_prefix = "demo-\${var.environment}"

  # owner_email is not declared in variables.tf: the language server flags this reference.
  common_tags = merge(var.tags, {
    environment = var.environment
    owner       = var.owner_email
    region      = var.region
  })
}

resource "random_pet" "app_name" {
  prefix = local.name_prefix
  length = 2
}

resource "terraform_data" "app_instance" {
  count = var.instance_count

  input = {
    name     = "\${random_pet.app_name.id}-\${count.index}"
    region   = var.region
    replicas = var.replica_count
    tags     = local.common_tags
  }
}

resource "terraform_data" "monitoring" {
  count = var.enable_monitoring ? 1 : 0

  input = {
    targets = terraform_data.app_instance[*].id
  }
}

resource "terraform_data" "database" {
  input = {
    password_hash = sha256(var.db_password)
    allowed_cidrs = var.allowed_cidrs
  }
}

resource "null_resource" "service_registration" {
  for_each = var.services

  triggers = {
    service = each.key
    port    = each.value.port
    public  = each.value.public
  }
}

resource "local_file" "inventory" {
  filename = "\${path.module}/inventory.json"
  content = jsonencode({
    app       = random_pet.app_name.id
    instances = terraform_data.app_instance[*].output
    services  = keys(var.services)
  })
}
`,
  'outputs.tf': `output "app_name" {
  description = "Generated name of the app."
  value       = random_pet.app_name.id
}

output "instance_ids" {
  description = "IDs of the app instances."
  value       = terraform_data.app_instance[*].id
}

output "inventory_path" {
  description = "Where the inventory file is written."
  value       = local_file.inventory.filename
}

output "database_password_hash" {
  description = "Hash of the database password, to check rotation without revealing it."
  value       = terraform_data.database.output.password_hash
  sensitive   = true
}
`,
  'variables.tf': `variable "region" {
  description = "Region the app is described for."
  type        = string
  default     = "eu-west-1"
}

variable "instance_count" {
  description = "How many app instances to create."
  type        = number
}

variable "enable_monitoring" {
  description = "Whether to add the monitoring resource."
  type        = bool
  default     = false
}

variable "allowed_cidrs" {
  description = "Networks allowed to reach the database."
  type        = list(string)
}

variable "tags" {
  description = "Extra tags for every instance."
  type        = map(string)
  default     = {}
}

variable "db_password" {
  description = "Database password. Set it as a sensitive workspace variable, never in a tfvars file."
  type        = string
  sensitive   = true
}

variable "services" {
  description = "Services registered for the app, by name."
  type = map(object({
    port   = number
    public = bool
  }))
  default = {}
}

variable "environment" {
  description = "Deployment environment (dev, staging, prod). Not set anywhere yet, so a run fails until it is."
  type        = string
}

variable "replica_count" {
  description = "Replicas per instance."
  type        = number
  default     = 1
}
`,
};

/** Only in the repository the workspace plans from, not in the local folder. */
export const demoAppPipelineFiles: Readonly<Record<string, string>> = {
  'pipeline.tf': `# Set by the deployment pipeline, not part of the local folder.
variable "owner_email" {
  description = "Who is paged for the app."
  type        = string
  default     = "platform@acme-demo.example"
}
`,
  'pipeline.auto.tfvars': `# Set by the deployment pipeline, not part of the local folder.
environment = "demo"

allowed_cidrs = [
  "10.0.0.0/16",
  "192.168.10.0/24",
]
`,
};

export const demoAppFiles: Readonly<Record<string, string>> = { ...demoAppFixtureFiles, ...demoAppPipelineFiles };

/** staging-api at a release: the release is part of the code, so each push is a new configuration that updates the API. */
export function stagingApiFiles(release: string): Record<string, string> {
  return {
    'main.tf': `# The API service in staging. Applies automatically after an advisory security scan.
resource "random_id" "deployment" {
  byte_length = 4
}

resource "terraform_data" "api" {
  input = {
    release  = "${release}"
    replicas = var.replicas
  }
}

resource "terraform_data" "feature_flag" {
  for_each = var.feature_flags

  input = each.value
}

output "release" {
  value = "${release}"
}
`,
    'variables.tf': `variable "replicas" {
  description = "API replicas."
  type        = number
  default     = 1
}

variable "feature_flags" {
  description = "Feature flags, on or off by name."
  type        = map(bool)
  default     = {}
}
`,
  };
}

/** prod-network: a VPC, its subnets and one peering per peer VPC. */
export const prodNetworkFiles: Readonly<Record<string, string>> = {
  'main.tf': `# Production VPC and peering. The network-baseline policy set soft-fails every change: it needs an override.
resource "terraform_data" "vpc" {
  input = {
    cidr_block = var.cidr_block
  }
}

resource "terraform_data" "subnet" {
  count = 3

  input = {
    vpc  = terraform_data.vpc.id
    zone = count.index
  }
}

resource "terraform_data" "peering" {
  for_each = toset(var.peer_vpc_ids)

  input = {
    vpc     = terraform_data.vpc.id
    peer_id = each.key
  }
}

output "vpc_cidr" {
  value = var.cidr_block
}
`,
  'variables.tf': `variable "cidr_block" {
  description = "The VPC's address range."
  type        = string
}

variable "peer_vpc_ids" {
  description = "VPCs peered with this one."
  type        = list(string)
  default     = []
}
`,
};

/** sandbox: two experiments, applied long ago; nothing changes since. */
export const sandboxFiles: Readonly<Record<string, string>> = {
  'main.tf': `# Experiments. Applied once; nothing to change since.
resource "random_pet" "playground" {
  length = 2
}

resource "terraform_data" "experiment" {
  input = "hello, sandbox"
}

output "message" {
  value = "hello, sandbox"
}
`,
};

/** legacy-batch: old batch jobs; its plans error (the workspace's plan outcome says so). */
export const legacyBatchFiles: Readonly<Record<string, string>> = {
  'main.tf': `# Old batch jobs, written for Terraform 1.5.
resource "terraform_data" "nightly_job" {
  input = {
    schedule = "0 2 * * *"
    command  = "batch run --all"
  }
}

resource "terraform_data" "report_job" {
  input = {
    schedule = "0 6 * * 1"
    command  = "batch report --weekly"
  }
}
`,
};

/** hello-world (acme-free): the starter configuration. */
export const helloWorldFiles: Readonly<Record<string, string>> = {
  'main.tf': `variable "greeting" {
  type    = string
  default = "hello"
}

resource "terraform_data" "greeting" {
  input = var.greeting
}

output "greeting" {
  value = var.greeting
}
`,
};

/** A configuration version's files. */
export function filesOf(texts: Readonly<Record<string, string>>): Map<string, Buffer> {
  return new Map(Object.entries(texts).map(([path, text]) => [path, Buffer.from(text, 'utf8')]));
}
