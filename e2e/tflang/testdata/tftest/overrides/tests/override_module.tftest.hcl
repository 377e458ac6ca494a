# override_module: nothing in the module is planned or made; its
# outputs are those given, the others null.
override_data {
  target = data.local_file.cfg
  values = {}
}

override_module {
  target = module.child
  outputs = {
    id = "fake-pet"
  }
}

run "plan" {
  command = plan

  assert {
    condition     = output.child_id == "fake-pet" && output.child_other == null
    error_message = "child outputs"
  }
}

run "apply" {
  assert {
    condition     = output.child_id == "fake-pet"
    error_message = "child id"
  }
}

run "no_outputs" {
  override_module {
    target = module.child
  }

  assert {
    condition     = output.child_id == null
    error_message = "child id is not null"
  }
}
