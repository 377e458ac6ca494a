# plan_options { mode = refresh-only }: nothing is created or changed;
# outputs and assertions see the state.
override_data {
  target = data.local_file.cfg
  values = { content = "c" }
}

run "refresh_first" {
  plan_options {
    mode = refresh-only
  }

  assert {
    condition     = output.content == "c"
    error_message = "content"
  }
}

run "create" {
  variables {
    name = "y"
  }
}

run "refresh_changed" {
  variables {
    name = "z"
  }

  plan_options {
    mode = refresh-only
  }

  assert {
    condition     = startswith(module.child.id, "y-")
    error_message = "a refresh-only run changed the pet: ${module.child.id}"
  }
}

run "not_in_state" {
  command = plan

  plan_options {
    mode = refresh-only
  }

  override_resource {
    target = terraform_data.d
  }

  assert {
    condition     = terraform_data.d.output == "c"
    error_message = "d"
  }
}
