# want: main.tf:12:12 Invalid value for variable
# also: on main.tf line 12, in module "big":
# also:    | var.size is 50
# also: This was checked by the validation rule at mod/main.tf:3,3-13.
resource "local_file" "base" {
  filename = "base.txt"
  content  = "base"
}

module "big" {
  source = "./mod"
  size   = 50
}
