locals {
  items = ["one", "two", "three"]
  flags = { debug = true, verbose = false }
}

resource "local_file" "h" {
  filename = "heredoc.txt"
  content  = <<-EOT
    Items:
    %{~ for i, item in local.items }
      ${i}: ${item}
    %{~ endfor }
    %{ if local.flags.debug }debug on%{ else }debug off%{ endif }
    %{ if local.flags.verbose ~}
    verbose
    %{~ endif ~}
    end
  EOT
}

locals {
  plain = <<EOT
  kept indentation
    more
EOT
  inline = "%{for k, v in local.flags}${k}=${v};%{endfor}"
  escaped = "$${not} %%{interpolated}"
}

output "content" { value = local_file.h.content }
output "plain" { value = local.plain }
output "inline" { value = local.inline }
output "escaped" { value = local.escaped }
