output "name" { value = "m" }
