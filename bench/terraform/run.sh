#!/bin/sh
# Terraform-language benchmark (not a timed test): N random_pet and N
# terraform_data (triggers_replace = its pet), written with count, run
# by terraform and by plinth on the same provider binaries: create, a
# no-change plan and destroy, wall-clock seconds each.
#   bench/terraform/run.sh [N]     (default 1000; terraform on PATH)
# `go run ./bench -scenario terraform` is the fuller harness: each tool's
# own CPU apart from its providers', peak RSS and issue 23's targets.
set -e
n=${1:-1000}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/plinth" "$root/cmd/plinth"
go run "$root/examples/terraform/getproviders" "$work/plugins" >/dev/null
random=$(ls "$work/plugins"/terraform-provider-random_v*)
version=${random##*_v}
mirror="$work/mirror/registry.terraform.io/hashicorp/random/$version/$(go env GOOS)_$(go env GOARCH)"
mkdir -p "$mirror" && ln -s "$(readlink -f "$random")" "$mirror/"
printf 'provider_installation {\n  filesystem_mirror {\n    path = "%s"\n  }\n}\n' "$work/mirror" > "$work/terraformrc"
for d in tf pl; do
  mkdir -p "$work/$d"
  cat > "$work/$d/main.tf" <<TF
terraform {
  required_providers {
    random = { source = "hashicorp/random" }
  }
}
resource "random_pet" "p" {
  count = $n
}
resource "terraform_data" "d" {
  count            = $n
  triggers_replace = random_pet.p[count.index].id
}
TF
done
secs() { s=$(date +%s.%N); "$@" >"$work/out" 2>&1 || { cat "$work/out"; exit 1; }; e=$(date +%s.%N); echo "$e - $s" | bc; }
export TF_CLI_CONFIG_FILE="$work/terraformrc" TF_IN_AUTOMATION=1 CHECKPOINT_DISABLE=1
export PLINTH_PLUGIN_PATH="$work/plugins" PLINTH_PASSPHRASE=bench
(cd "$work/tf" && terraform init -input=false >/dev/null)
tc=$(cd "$work/tf" && secs terraform apply -auto-approve -input=false)
tp=$(cd "$work/tf" && secs terraform plan -detailed-exitcode -input=false)
td=$(cd "$work/tf" && secs terraform destroy -auto-approve -input=false)
pc=$(secs "$work/plinth" -C "$work/pl" up --yes --skip-preview)
pp=$(secs "$work/plinth" -C "$work/pl" preview --detailed-exitcode)
pd=$(secs "$work/plinth" -C "$work/pl" destroy --yes --skip-preview)
printf '%d random_pet + %d terraform_data\n' "$n" "$n"
printf '%-10s %10s %10s %8s\n' phase terraform plinth speedup
printf '%-10s %10.2f %10.2f %7.1fx\n' create "$tc" "$pc" "$(echo "$tc / $pc" | bc -l)"
printf '%-10s %10.2f %10.2f %7.1fx\n' plan "$tp" "$pp" "$(echo "$tp / $pp" | bc -l)"
printf '%-10s %10.2f %10.2f %7.1fx\n' destroy "$td" "$pd" "$(echo "$td / $pd" | bc -l)"
