# want: main.tf:2:1 Unsupported block type
resource_x "local_file" "base" {
}
