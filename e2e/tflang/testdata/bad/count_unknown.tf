# want: main.tf:6:14 Invalid count argument
resource "random_pet" "p" {
}

resource "local_file" "base" {
  count    = length(random_pet.p.id)
  filename = "base.txt"
  content  = "base"
}
