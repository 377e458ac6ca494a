run "a" {
  command = plan
