# Mock providers: nothing is created, computed attributes come from the
# defaults or are generated; configured ones keep their values.
mock_provider "random" {
  mock_resource "random_string" {
    defaults = {
      result = "mocked"
    }
  }
}

mock_provider "local" {
  mock_data "local_file" {
    defaults = {
      content = "fake content"
    }
  }
}

run "apply" {
  assert {
    condition     = output.s == "mocked"
    error_message = "s is ${output.s}."
  }
  assert {
    condition     = output.self == "fake content"
    error_message = "self is ${output.self}."
  }
  assert {
    condition     = length(random_string.s.id) == 8 && random_string.s.length == 5
    error_message = "The generated id or the configured length is wrong."
  }
  assert {
    condition     = local_file.f.content == "mocked"
    error_message = "The file's content is ${local_file.f.content}."
  }
}

run "wrong" {
  assert {
    condition     = output.s == "real"
    error_message = "s is ${output.s}."
  }
}

run "plan_after" {
  command = plan
  assert {
    condition     = output.s == "mocked"
    error_message = "s is ${output.s}."
  }
}
