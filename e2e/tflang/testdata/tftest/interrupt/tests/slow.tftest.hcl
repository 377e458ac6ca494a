run "slow" {}

run "after" {
  command = plan
}
