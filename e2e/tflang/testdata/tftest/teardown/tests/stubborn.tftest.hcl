run "create" {}
