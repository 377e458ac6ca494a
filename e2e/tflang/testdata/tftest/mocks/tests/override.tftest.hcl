# Overridden resources are not created; the run's override wins over the
# file's. The random provider is real.
override_resource {
  target = local_file.f
  values = {
    id = "from-the-file"
  }
}

run "file_override" {
  assert {
    condition     = output.file_id == "from-the-file"
    error_message = "file_id is ${output.file_id}."
  }
  assert {
    condition     = length(output.s) == 5
    error_message = "The real random string is ${output.s}."
  }
}

run "run_override" {
  override_resource {
    target = random_string.s
    values = {
      result = "xyz"
    }
  }
  assert {
    condition     = local_file.f.content == "xyz"
    error_message = "The file's content is ${local_file.f.content}."
  }
}
