override_module {
  target = module.a[0]
}
