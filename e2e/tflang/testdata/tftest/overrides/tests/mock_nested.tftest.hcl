# override_resource inside mock_provider: its value is unknown in a plan
# until the resource is made.
mock_provider "random" {
  override_resource {
    target = random_pet.p
    values = {
      id = "mocked-in-provider"
    }
  }
}

variables {
  name = "n"
}

run "apply" {
  module {
    source = "./child"
  }

  assert {
    condition     = output.id == "mocked-in-provider"
    error_message = "id is ${output.id}"
  }
}

run "plan_made" {
  command = plan

  module {
    source = "./child"
  }

  assert {
    condition     = output.id == "mocked-in-provider"
    error_message = "id is ${output.id}"
  }
}

run "plan_new" {
  command = plan

  module {
    source = "./child"
  }

  variables {
    name = "new"
  }

  assert {
    condition     = output.id == "mocked-in-provider"
    error_message = "id is ${output.id}"
  }
}
