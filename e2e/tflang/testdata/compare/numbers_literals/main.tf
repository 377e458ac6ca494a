locals {
  third = 1 / 3
}
output "third" { value = local.third }
output "third_s" { value = "${local.third}" }
output "sum" { value = 0.1 + 0.2 }
output "big" { value = 12345678901234567890 }
output "big_s" { value = tostring(12345678901234567890) }
output "e" { value = 1e3 }
output "neg" { value = -7 % 3 }
output "fl" { value = floor(-2.5) }
output "fmt" { value = format("%.3f|%5d|%-4s|%q|%v|%#v", 3.14159, 42, "ab", "q", [1, 2], { a = 1 }) }
output "json" { value = jsonencode({ n = 1.50, i = 10, big = 1e20, s = "x<y" }) }
output "div" { value = 10 / 4 }
output "pow" { value = pow(2, 0.5) }
output "parse" { value = parseint("ff", 16) }
output "big_neg" { value = -98765432109876543210 }
output "big_frac" { value = 12345678901234567890.5 }
