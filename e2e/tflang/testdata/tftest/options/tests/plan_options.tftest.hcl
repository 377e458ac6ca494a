# plan_options: replace makes a new pet, a normal plan without refresh
# changes nothing, target applies only what it names.
run "first" {}

run "replace" {
  plan_options {
    replace = [random_pet.p]
  }
  assert {
    condition     = output.pet != run.first.pet
    error_message = "The pet was not replaced."
  }
}

run "normal_mode" {
  command = plan
  plan_options {
    mode    = normal
    refresh = true
  }
  assert {
    condition     = output.pet == run.replace.pet
    error_message = "A plan with nothing changed changed the pet."
  }
}

run "no_refresh" {
  command = plan
  plan_options {
    refresh = false
  }
  variables {
    count_of = 3
  }
  assert {
    condition     = length(terraform_data.items) == 3
    error_message = "The plan does not have 3 items."
  }
}

run "targeted" {
  variables {
    seed   = "two"
    prefix = "tgt"
  }
  plan_options {
    target = [random_pet.p]
  }
  assert {
    condition     = output.pet != run.replace.pet
    error_message = "The targeted apply kept the pet."
  }
  assert {
    condition     = startswith(output.pet, "tgt-")
    error_message = "The pet is ${output.pet}."
  }
}

run "untargeted" {
  variables {
    seed     = "two"
    prefix   = "tgt"
    count_of = 3
  }
  assert {
    condition     = length(terraform_data.items) == 3
    error_message = "The untargeted apply made ${length(terraform_data.items)} items."
  }
}
