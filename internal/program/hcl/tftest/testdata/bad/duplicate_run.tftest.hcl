run "a" {}

run "a" {
  command = plan
}
