run "a" {
  command = "plan"
}
