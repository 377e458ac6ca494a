resource "terraform_data" "copy" {
  count = 2
  input = count.index
}

resource "terraform_data" "solo" {
  input = "solo"
}

module "site" {
  source   = "./mod"
  for_each = toset(["a", "b"])
  name     = each.key
}
