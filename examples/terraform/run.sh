#!/bin/sh
# Runs the Terraform example with plinth: builds the random and local
# providers from the Go module proxy (cached after the first run), then
# `plinth up`. Pass other plinth arguments to run those instead
# (examples/terraform/run.sh destroy --yes).
set -e
root=$(cd "$(dirname "$0")/../.." && pwd)
plugins="$root/examples/terraform/.plinth/plugins"
cd "$root"
go run ./examples/terraform/getproviders "$plugins"
[ $# -gt 0 ] || set -- up --yes
PLINTH_PLUGIN_PATH="$plugins" PLINTH_PASSPHRASE="${PLINTH_PASSPHRASE:-example}" go run ./cmd/plinth -C examples/terraform "$@"
