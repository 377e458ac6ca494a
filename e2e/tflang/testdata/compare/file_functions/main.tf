output "file" { value = file("${path.module}/data/a.txt") }
output "fileset" { value = fileset(path.module, "data/*.txt") }
output "exists" { value = [fileexists("${path.module}/data/a.txt"), fileexists("${path.module}/nope")] }
output "hash" { value = [filemd5("data/a.txt"), filesha256("data/b.txt"), filebase64("data/a.txt")] }
output "paths" { value = [basename("/x/y/z.txt"), dirname("/x/y/z.txt")] }

resource "local_file" "copy" {
  for_each = fileset(path.module, "data/*.txt")
  filename = "copy-${basename(each.key)}"
  content  = upper(file(each.key))
}

output "copies" { value = { for k, f in local_file.copy : k => f.content } }
