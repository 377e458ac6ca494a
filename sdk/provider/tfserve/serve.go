package tfserve

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/hashicorp/terraform-plugin-go/tfprotov5"
	"github.com/hashicorp/terraform-plugin-go/tfprotov5/tf5server"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/plinth-iac/plinth/sdk/provider"
)

// ProtocolEnv names the environment variable that selects the protocol
// when the command line does not: 5 or 6.
const ProtocolEnv = "PLINTH_TF_PROTOCOL"

// Serve serves p as a Terraform provider over protocol 5 or 6 until
// Terraform closes it. address is the provider's source address
// ("registry.terraform.io/plinth-iac/plinth"), which go-plugin's debug
// mode prints.
func Serve(address string, p provider.Provider, protocol int) error {
	switch protocol {
	case 6:
		s, err := NewServer6(p)
		if err != nil {
			return err
		}
		return tf6server.Serve(address, func() tfprotov6.ProviderServer { return s })
	case 5:
		s, err := NewServer5(p)
		if err != nil {
			return err
		}
		return tf5server.Serve(address, func() tfprotov5.ProviderServer { return s })
	}
	return fmt.Errorf("protocol %d is not served: choose 5 or 6", protocol)
}

// Main is a provider's main function: it serves p over protocol 6, or 5
// when the command line says -protocol=5 or the environment sets
// PLINTH_TF_PROTOCOL=5 (for Terraform older than 1.0), and exits.
func Main(address string, p provider.Provider) {
	protocol, err := ProtocolFrom(os.Args[1:], os.Getenv(ProtocolEnv), os.Stderr)
	if err == nil {
		err = Serve(address, p, protocol)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}

// ProtocolFrom reads the protocol from command-line arguments
// (-protocol=5) or, failing that, the environment variable's value; 6 by
// default.
func ProtocolFrom(args []string, env string, usage io.Writer) (int, error) {
	fs := flag.NewFlagSet("terraform provider", flag.ContinueOnError)
	fs.SetOutput(usage)
	protocol := fs.Int("protocol", 0, "Terraform plugin protocol to serve: 6 (Terraform 1.0 and later) or 5")
	if err := fs.Parse(args); err != nil {
		return 0, err
	}
	if *protocol == 0 && env != "" {
		n, err := strconv.Atoi(env)
		if err != nil {
			return 0, fmt.Errorf("%s=%q is not a protocol version: set it to 5 or 6", ProtocolEnv, env)
		}
		*protocol = n
	}
	if *protocol == 0 {
		*protocol = 6
	}
	if *protocol != 5 && *protocol != 6 {
		return 0, fmt.Errorf("protocol %d is not served: choose 5 or 6", *protocol)
	}
	return *protocol, nil
}
