resource "time_static" "fixed" {
  rfc3339 = "2024-02-29T13:14:15Z"
}

resource "time_offset" "later" {
  base_rfc3339 = time_static.fixed.rfc3339
  offset_days  = 1
  offset_hours = 2
}

output "year" { value = time_static.fixed.year }
output "unix" { value = time_static.fixed.unix }
output "day" { value = time_static.fixed.day }
output "later" { value = time_offset.later.rfc3339 }
output "formatted" { value = formatdate("EEEE, DD MMM YYYY hh:mm:ss ZZZ", time_static.fixed.rfc3339) }
output "added" { value = timeadd(time_static.fixed.rfc3339, "-36h30m") }
output "cmp" { value = timecmp(time_static.fixed.rfc3339, time_offset.later.rfc3339) }
