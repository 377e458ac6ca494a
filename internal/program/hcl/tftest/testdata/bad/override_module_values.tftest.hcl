override_module {
  target = module.a
  values = {}
}
