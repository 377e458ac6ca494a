// Command terraform-provider-echo is a test provider for e2e/tflang: a
// Terraform provider (protocol 6, served with terraform-plugin-go) whose
// one data source is named like the provider, as the external and http
// providers' are: data "echo" "x" { input = "..." } reads result, the
// input echoed. It lets terraform and plinth be compared on such a type.
// It is not a product.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

func main() {
	if err := tf6server.Serve("registry.terraform.io/hashicorp/echo", func() tfprotov6.ProviderServer { return server{} }); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// echoType is the data source's object type.
var echoType = tftypes.Object{AttributeTypes: map[string]tftypes.Type{"input": tftypes.String, "result": tftypes.String}}

// server answers the calls a data source needs; the embedded interface is
// nil, so any other call panics, which the test would see.
type server struct{ tfprotov6.ProviderServer }

func (server) GetProviderSchema(context.Context, *tfprotov6.GetProviderSchemaRequest) (*tfprotov6.GetProviderSchemaResponse, error) {
	echo := &tfprotov6.Schema{Block: &tfprotov6.SchemaBlock{Attributes: []*tfprotov6.SchemaAttribute{
		{Name: "input", Type: tftypes.String, Required: true, Description: "What to echo."},
		{Name: "result", Type: tftypes.String, Computed: true, Description: "The input."},
	}}}
	return &tfprotov6.GetProviderSchemaResponse{
		Provider:          &tfprotov6.Schema{Block: &tfprotov6.SchemaBlock{}},
		DataSourceSchemas: map[string]*tfprotov6.Schema{"echo": echo},
		ResourceSchemas:   map[string]*tfprotov6.Schema{},
	}, nil
}

func (server) GetMetadata(context.Context, *tfprotov6.GetMetadataRequest) (*tfprotov6.GetMetadataResponse, error) {
	return &tfprotov6.GetMetadataResponse{DataSources: []tfprotov6.DataSourceMetadata{{TypeName: "echo"}}}, nil
}

func (server) GetResourceIdentitySchemas(context.Context, *tfprotov6.GetResourceIdentitySchemasRequest) (*tfprotov6.GetResourceIdentitySchemasResponse, error) {
	return &tfprotov6.GetResourceIdentitySchemasResponse{}, nil
}

func (server) ValidateProviderConfig(_ context.Context, req *tfprotov6.ValidateProviderConfigRequest) (*tfprotov6.ValidateProviderConfigResponse, error) {
	return &tfprotov6.ValidateProviderConfigResponse{PreparedConfig: req.Config}, nil
}

func (server) ConfigureProvider(context.Context, *tfprotov6.ConfigureProviderRequest) (*tfprotov6.ConfigureProviderResponse, error) {
	return &tfprotov6.ConfigureProviderResponse{}, nil
}

func (server) StopProvider(context.Context, *tfprotov6.StopProviderRequest) (*tfprotov6.StopProviderResponse, error) {
	return &tfprotov6.StopProviderResponse{}, nil
}

func (server) ValidateDataResourceConfig(context.Context, *tfprotov6.ValidateDataResourceConfigRequest) (*tfprotov6.ValidateDataResourceConfigResponse, error) {
	return &tfprotov6.ValidateDataResourceConfigResponse{}, nil
}

func (server) ReadDataSource(_ context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	cfg, err := req.Config.Unmarshal(echoType)
	if err != nil {
		return nil, err
	}
	var attrs map[string]tftypes.Value
	if err := cfg.As(&attrs); err != nil {
		return nil, err
	}
	state, err := tfprotov6.NewDynamicValue(echoType, tftypes.NewValue(echoType, map[string]tftypes.Value{
		"input": attrs["input"], "result": attrs["input"],
	}))
	if err != nil {
		return nil, err
	}
	return &tfprotov6.ReadDataSourceResponse{State: &state}, nil
}
