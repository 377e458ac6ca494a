# want: main.tf:9:14 Invalid for_each argument
resource "local_file" "base" {
  filename = "base.txt"
  content  = "base"
}
resource "random_pet" "p" {
}
resource "local_file" "each" {
  for_each = toset([random_pet.p.id])
  filename = "${each.key}.txt"
  content  = "x"
}
