locals {
  items = ["a", "b", "c"]
  kv    = { x = 1, y = 2 }
}

resource "time_static" "t" {
  rfc3339 = "2024-02-29T13:04:05Z"
}

output "list" {
  value = <<-EOT
    %{~ for i, x in local.items ~}
    ${i}=${x}
    %{~ endfor ~}
  EOT
}
output "list2" { value = "%{for x in local.items}${x},%{endfor}" }
output "strip" { value = "[ %{~ for k, v in local.kv ~} ${k}:${v} %{~ endfor ~} ]" }
output "cond" { value = "%{if length(local.items) > 2}many%{else}few%{endif}" }
output "lines" {
  value = <<EOT
%{for x in local.items~}
- ${x}
%{endfor~}
end
EOT
}
output "fd" { value = formatdate("EEEE, DD-MMM-YY hh:mm:ss ZZZ", time_static.t.rfc3339) }
output "fd2" { value = formatdate("YYYY/M/D h:m aa", time_static.t.rfc3339) }
output "year" { value = time_static.t.year }
