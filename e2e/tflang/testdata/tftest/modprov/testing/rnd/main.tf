resource "random_string" "s" {
  length = 6
}

output "s" {
  value = random_string.s.result
}
