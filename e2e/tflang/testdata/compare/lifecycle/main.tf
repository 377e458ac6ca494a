locals {
  word = "guarded"
}

resource "local_file" "kept" {
  filename = "kept.txt"
  content  = "first"
  lifecycle {
    ignore_changes = [content]
  }
}

resource "local_file" "guarded" {
  filename = "guarded.txt"
  content  = local.word
  lifecycle {
    precondition {
      condition     = length(local.word) > 3
      error_message = "too short"
    }
    postcondition {
      condition     = self.content == "guarded"
      error_message = "content changed"
    }
  }
}

output "kept" { value = local_file.kept.content }
