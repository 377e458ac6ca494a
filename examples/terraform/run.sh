#!/bin/sh
# Runs the Terraform example with plinth as a Terraform user would:
# `plinth init` installs the random and local providers from a registry,
# then `plinth up`. No registry is reachable from here, so
# examples/terraform/localregistry builds the providers from the Go
# module proxy (cached after the first run) and serves them, signed, from
# a local HTTPS registry standing in for registry.terraform.io while the
# two commands run. Pass other plinth arguments to run those after init
# instead (examples/terraform/run.sh destroy --yes).
set -e
root=$(cd "$(dirname "$0")/../.." && pwd)
work="$root/examples/terraform/.registry"
cd "$root"
mkdir -p "$work"
go build -o "$work/plinth" ./cmd/plinth
[ $# -gt 0 ] || set -- up --yes
PLINTH_PASSPHRASE="${PLINTH_PASSPHRASE:-example}" go run ./examples/terraform/localregistry "$work" \
	"$work/plinth" -C examples/terraform init -- "$work/plinth" -C examples/terraform "$@"
