# A module that tells a given input from its default by the input's
# type, as Invicton-Labs' input-provided does: an input unknown in the
# plan is "provided", and stays so in the apply, where terraform keeps
# the outputs its plan knew.
resource "random_string" "r" {
  length  = 3
  numeric = false
}

module "ternary" {
  source = "./detect"
  in     = random_string.r.result == "22" ? "foo" : null
}

module "static" {
  source = "./detect"
  in     = null
}

module "given" {
  source = "./detect"
  in     = random_string.r.result
}

output "ternary" {
  value = module.ternary.provided
}
