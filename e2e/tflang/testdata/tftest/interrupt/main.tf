resource "local_file" "note" {
  filename = "${path.module}/out/note.txt"
  content  = "made by a test run"
}

resource "time_sleep" "wait" {
  depends_on      = [local_file.note]
  create_duration = "3s"
}
