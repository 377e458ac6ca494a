a    = "tfvars"
b    = "tfvars"
c    = "tfvars"
list = ["from", "tfvars"]
