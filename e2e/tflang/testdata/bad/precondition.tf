# want: main.tf:10:23 Resource precondition failed
variable "size" {
  default = 1
}
resource "local_file" "base" {
  filename = "base.txt"
  content  = "base"
  lifecycle {
    precondition {
      condition     = var.size > 2
      error_message = "size must be more than 2"
    }
  }
}
