locals {
  words = ["alpha", "beta", "gamma"]
}

resource "local_file" "s" {
  filename = "strings.txt"
  content  = join("\n", formatlist("%02d=%s", range(3), local.words))
}

output "content" { value = local_file.s.content }
output "format" { value = format("%-6s|%6.2f|%x|%q|%t", "ab", 3.14159, 255, "q", true) }
output "replace" { value = [replace("a-b-c", "-", "_"), replace("v1.2.3", "/v(\\d+)\\..*/", "major=$1")] }
output "title" { value = [title("hello world"), upper("x"), lower("Y"), strrev("abc")] }
output "trim" { value = [trimspace("  x  "), trim("--x--", "-"), trimprefix("prefix-x", "prefix-"), trimsuffix("x.txt", ".txt"), chomp("x\n\n")] }
output "split" { value = split(",", "a,,b") }
output "substr" { value = [substr("hello", 1, 3), substr("hello", -3, -1)] }
output "indent" { value = indent(2, "a\nb\nc") }
output "checks" { value = [startswith("abc", "ab"), endswith("abc", "bc"), strcontains("abc", "d")] }
output "hashes" { value = [md5("x"), sha1("x"), sha256("x"), base64sha256("x"), uuidv5("dns", "example.com")] }
output "url" { value = urlencode("a b&c=d/é") }
