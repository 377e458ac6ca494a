locals {
  envs    = ["dev", "prod"]
  regions = ["eu", "us"]
  pairs   = setproduct(local.envs, local.regions)
}

resource "local_file" "pairs" {
  for_each = { for p in local.pairs : "${p[0]}-${p[1]}" => p }
  filename = "${each.key}.txt"
  content  = join("/", each.value)
}

output "pairs" { value = local.pairs }
output "files" { value = sort(keys(local_file.pairs)) }
output "zip" { value = zipmap(local.envs, local.regions) }
output "transpose" { value = transpose({ a = ["1", "2"], b = ["2", "3"] }) }
output "flatten" { value = flatten([[1, [2]], [], [[3, 4]]]) }
output "merge" { value = merge({ a = 1, b = 2 }, { b = 3, c = 4 }) }
output "lookup" { value = lookup({ a = "x" }, "b", "fallback") }
output "chunks" { value = chunklist(["a", "b", "c", "d", "e"], 2) }
output "distinct" { value = distinct(["b", "a", "b", "c"]) }
output "slice" { value = slice(["a", "b", "c", "d"], 1, 3) }
output "range" { value = range(1, 10, 3) }
output "setops" { value = [setunion(["a"], ["b"]), setintersection(["a", "b"], ["b", "c"]), setsubtract(["a", "b"], ["a"])] }
output "matchkeys" { value = matchkeys(["i-1", "i-2", "i-3"], ["us", "eu", "us"], ["us"]) }
output "sum" { value = sum([1, 2.5, 3]) }
output "element" { value = element(["a", "b"], 5) }
output "index" { value = index(["a", "b", "c"], "c") }
output "reverse" { value = reverse([1, 2, 3]) }
output "alltrue" { value = [alltrue([true, "true"]), anytrue([]), contains(["a"], "a")] }
