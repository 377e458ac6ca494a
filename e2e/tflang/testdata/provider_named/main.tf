# A data source type named like its provider (as the external and http
# providers name theirs): its provider is echo, the whole name.
data "echo" "x" {
  input = "hello"
}
output "echoed" { value = data.echo.x.result }
