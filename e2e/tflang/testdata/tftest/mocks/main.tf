resource "random_string" "s" {
  length = 5
}

resource "local_file" "f" {
  filename = "${path.module}/out/f.txt"
  content  = random_string.s.result
}

data "local_file" "self" {
  filename = "${path.module}/main.tf"
}

output "s" {
  value = random_string.s.result
}

output "file_id" {
  value = local_file.f.id
}

output "self" {
  value = data.local_file.self.content
}
