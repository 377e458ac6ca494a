output "greeting" {
  value = "hello"
}
