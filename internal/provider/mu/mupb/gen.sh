#!/bin/sh
# Regenerates the Go code for mu.proto. Run through "go generate" from this
# directory; needs protoc (Debian: protobuf-compiler), and protoc-gen-go and
# protoc-gen-go-grpc on PATH (go install
# google.golang.org/protobuf/cmd/protoc-gen-go@v1.36.11 and
# google.golang.org/grpc/cmd/protoc-gen-go-grpc@v1.5.1).
set -eu
cd ../../../..
protoc -I . \
	--go_out=. --go_opt=paths=source_relative \
	--go-grpc_out=. --go-grpc_opt=paths=source_relative \
	internal/provider/mu/mupb/mu.proto
# The proto package is plinth.mu to keep the descriptors apart from any
# other copy in the protobuf registry, but on the wire the service must be
# called as the protocol names it.
sed -i 's/"\(\/\{0,1\}\)plinth\.mu\.ResourceProvider/"\1mu.ResourceProvider/g' \
	internal/provider/mu/mupb/mu_grpc.pb.go
