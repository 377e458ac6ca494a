run "plan" {
  command = plan
}

run "from_plan" {
  variables {
    input = run.plan.echo
  }
}
