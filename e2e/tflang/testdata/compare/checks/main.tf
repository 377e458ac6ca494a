resource "local_file" "f" {
  filename = "checked.txt"
  content  = "checked content"
}

check "content_length" {
  assert {
    condition     = length(local_file.f.content) > 5
    error_message = "content too short"
  }
}

check "always_warns" {
  assert {
    condition     = local_file.f.content == "something else"
    error_message = "content is not something else (a warning, not an error)"
  }
}

output "content" { value = local_file.f.content }
