# override_data: the file is never read; configured arguments keep their
# values, computed attributes not given are generated, known in a plan.
override_data {
  target = data.local_file.cfg
  values = {
    content = "hello"
  }
}

run "plan" {
  command = plan

  assert {
    condition     = output.content == "hello" && data.local_file.cfg.filename == "./missing.txt"
    error_message = "content"
  }

  assert {
    condition     = length(output.sha) == 8
    error_message = "the generated sha is ${output.sha}"
  }
}

run "apply" {
  assert {
    condition     = output.d == "hello"
    error_message = "d is ${output.d}"
  }
}

run "in_run" {
  override_data {
    target = data.local_file.cfg
    values = {
      content = "run"
    }
  }

  assert {
    condition     = output.d == "run"
    error_message = "the run's override does not win: d is ${output.d}"
  }
}

run "wrong" {
  command = plan

  assert {
    condition     = output.content == "bye"
    error_message = "content is ${output.content}"
  }
}
