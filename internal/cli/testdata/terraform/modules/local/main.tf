module "clock" {
  source = "git::GITURL//pet"
}

output "made" {
  value = module.clock.made
}
