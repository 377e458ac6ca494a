run "plan" {
  command = plan
  assert {
    condition     = module.ternary.provided && !module.static.provided && module.given.provided
    error_message = "In the plan: ternary ${module.ternary.provided}, static ${module.static.provided}, given ${module.given.provided}."
  }
}

run "apply" {
  assert {
    condition     = module.ternary.provided
    error_message = "The apply found the ternary's input not provided."
  }
  assert {
    condition     = output.ternary
    error_message = "The root output says not provided."
  }
  assert {
    condition     = !module.static.provided && module.given.provided
    error_message = "static ${module.static.provided}, given ${module.given.provided}."
  }
}

run "again" {
  command = plan
  assert {
    condition     = !module.ternary.provided
    error_message = "A plan with the random string known still finds the ternary's input provided."
  }
}
