output "prefix" {
  value = "reg"
}
