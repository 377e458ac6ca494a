# A check block that fails without being expected fails the run.
run "big" {
  variables {
    size = 7
  }
}

run "skipped" {
  command = plan
}
