# override_during = plan makes an overridden resource's values known in
# a plan run; without it they are known only once the run applies. An
# override without an index overrides every instance; one with an index
# that instance, winning.
override_data {
  target = data.local_file.cfg
  values = { content = "c" }
}

override_resource {
  target          = terraform_data.d
  override_during = plan
  values = {
    id     = "fixed"
    output = "during-plan"
  }
}

override_resource {
  target = terraform_data.many
  values = {
    output = 7
  }
}

override_resource {
  target = terraform_data.many[1]
  values = {
    output = 9
  }
}

run "plan" {
  command = plan

  assert {
    condition     = terraform_data.d.output == "during-plan"
    error_message = "d is ${terraform_data.d.output}"
  }
}

run "apply" {
  assert {
    condition     = terraform_data.many[0].output == 7 && terraform_data.many[1].output == 9
    error_message = "many: ${terraform_data.many[0].output}, ${terraform_data.many[1].output}"
  }
}

run "plan_unknown" {
  command = plan

  override_resource {
    target = terraform_data.d
    values = {
      output = "apply-only"
    }
  }

  assert {
    condition     = terraform_data.d.output == "apply-only"
    error_message = "known in a plan"
  }
}
