#!/bin/sh
# Regenerates the Go code for tfplugin5.proto. Run through "go generate"
# from this directory; needs protoc (Debian: protobuf-compiler), and
# protoc-gen-go and protoc-gen-go-grpc on PATH (go install
# google.golang.org/protobuf/cmd/protoc-gen-go@v1.36.11 and
# google.golang.org/grpc/cmd/protoc-gen-go-grpc@v1.5.1).
set -eu
cd ../..
protoc -I . \
	--go_out=. --go_opt=paths=source_relative \
	--go-grpc_out=. --go-grpc_opt=paths=source_relative \
	sdk/tfplugin5/tfplugin5.proto
# The proto package is plinth.tfplugin5 to keep the descriptors apart from
# terraform-plugin-go's in the protobuf registry, but on the wire the
# services must be called as Terraform names them.
sed -i 's/"\(\/\{0,1\}\)plinth\.tfplugin5\.\(Provider\|Provisioner\)/"\1tfplugin5.\2/g' \
	sdk/tfplugin5/tfplugin5_grpc.pb.go
