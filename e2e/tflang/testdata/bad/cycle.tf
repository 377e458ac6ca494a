# want: main.tf: Cycle
locals {
  a = local.b
  b = local.a
}
