# A mock provider for an aliased configuration of a provider, beside one
# for its default configuration.
mock_provider "random" {
  mock_resource "random_pet" {
    defaults = {
      id = "default-pet"
    }
  }
}

mock_provider "random" {
  alias = "other"
}

run "pets" {
  module {
    source = "./child"
  }

  variables {
    name = "n"
  }

  assert {
    condition     = output.id == "default-pet"
    error_message = "id is ${output.id}"
  }

  assert {
    condition     = output.other_id != "default-pet"
    error_message = "the aliased mock took the default mock's defaults"
  }
}
