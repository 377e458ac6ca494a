# A policy-document builder in the manner of IAM policy modules: a list
# of statement objects with optional principals and conditions, rendered
# with jsonencode into a policy document where absent parts are left
# out and single values unwrapped (a tuple indexed by a condition, as
# policy modules do where a conditional would refuse string against
# list), statements grouped by effect, and the document's hash kept.
variable "statements" {
  type = list(object({
    sid        = optional(string)
    effect     = optional(string, "Allow")
    actions    = list(string)
    resources  = optional(list(string), ["*"])
    principals = optional(map(list(string)))
    conditions = optional(list(object({
      test     = string
      variable = string
      values   = list(string)
    })), [])
  }))
  default = [
    { sid = "Read", actions = ["s3:GetObject", "s3:ListBucket"], resources = ["arn:aws:s3:::bucket", "arn:aws:s3:::bucket/*"] },
    {
      sid     = "DenyInsecure"
      effect  = "Deny"
      actions = ["s3:*"]
      conditions = [
        { test = "Bool", variable = "aws:SecureTransport", values = ["false"] },
        { test = "StringNotEquals", variable = "aws:PrincipalOrgID", values = ["o-123", "o-456"] },
        { test = "StringNotEquals", variable = "aws:SourceVpce", values = ["vpce-1"] },
      ]
    },
    { actions = ["kms:Decrypt"], principals = { AWS = ["arn:aws:iam::111122223333:root"], Service = ["s3.amazonaws.com"] } },
  ]
  validation {
    condition     = alltrue([for s in var.statements : contains(["Allow", "Deny"], s.effect)])
    error_message = "Every statement's effect must be Allow or Deny."
  }
}

variable "extra_actions" {
  type    = set(string)
  default = ["s3:PutObject", "s3:DeleteObject"]
}

locals {
  statements = [
    for i, s in var.statements : merge(
      {
        Sid      = coalesce(s.sid, "Stmt${i}")
        Effect   = s.effect
        Action   = [s.actions[0], sort(s.actions)][length(s.actions) == 1 ? 0 : 1]
        Resource = [try(one(s.resources), null), s.resources][length(s.resources) == 1 ? 0 : 1]
      },
      s.principals == null ? {} : { Principal = { for k, v in s.principals : k => [try(v[0], null), v][length(v) == 1 ? 0 : 1] } },
      length(s.conditions) == 0 ? {} : {
        Condition = {
          for test, conds in { for c in s.conditions : c.test => c... } :
          test => { for c in conds : c.variable => [try(c.values[0], null), c.values][length(c.values) == 1 ? 0 : 1] }
        }
      },
    )
  ]
  write = {
    Sid      = "Write"
    Effect   = "Allow"
    Action   = sort(tolist(var.extra_actions))
    Resource = "arn:aws:s3:::bucket/*"
  }
  document = jsonencode({
    Version   = "2012-10-17"
    Statement = concat(local.statements, [local.write])
  })
  by_effect = { for s in concat(local.statements, [local.write]) : s.Effect => s.Sid... }
}

resource "local_file" "policy" {
  filename = "${path.module}/out/policy.json"
  content  = local.document
}

resource "terraform_data" "policy" {
  input = {
    sha    = sha256(local.document)
    length = length(local.document)
  }
  triggers_replace = [local_file.policy.content_md5]
}

output "document" {
  value = local.document
}

output "decoded" {
  value = jsondecode(local_file.policy.content)
}

output "by_effect" {
  value = local.by_effect
}

output "policy_hash" {
  value = terraform_data.policy.output
}

output "condition_keys" {
  value = flatten([for s in local.statements : [for t, m in try(s.Condition, {}) : [for k in keys(m) : "${s.Sid}/${t}/${k}"]]])
}
