a = "tfvars"
e = "tfvars"
