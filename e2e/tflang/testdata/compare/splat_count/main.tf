resource "random_pet" "p" {
  count  = 3
  length = count.index + 1
}

resource "local_file" "f" {
  count    = 3
  filename = "f${count.index}.txt"
  content  = "file ${count.index}"
}

output "lengths" { value = random_pet.p[*].length }
output "rand_ids" { value = random_pet.p[*].id }
output "filenames" { value = local_file.f[*].filename }
output "contents" { value = local_file.f.*.content }
output "first" { value = local_file.f[0].content }
output "count" { value = length(local_file.f) }
