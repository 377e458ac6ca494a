run "a" {
  command = destroy
}
