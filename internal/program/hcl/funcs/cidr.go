package funcs

import (
	"fmt"
	"math/big"
	"net"
	"strconv"
	"strings"

	"github.com/apparentlymart/go-cidr/cidr"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/gocty"
)

func cidrTable() map[string]function.Function {
	return map[string]function.Function{
		"cidrhost": cidrHostFunc, "cidrnetmask": cidrNetmaskFunc,
		"cidrsubnet": cidrSubnetFunc, "cidrsubnets": cidrSubnetsFunc,
	}
}

func parseCIDR(s string) (*net.IPNet, error) {
	_, network, err := net.ParseCIDR(s)
	if err != nil {
		// Terraform's parser predates Go's rejection of leading zeros in
		// IPv4 octets and reads them as decimal: "010.0.0.0/8" is 10.0.0.0/8.
		_, network, err = net.ParseCIDR(trimOctetZeros(s))
	}
	if err != nil {
		return nil, fmt.Errorf("invalid CIDR expression: %s", err)
	}
	return network, nil
}

// trimOctetZeros rewrites "010.001.0.0/8" as "10.1.0.0/8"; other input is
// returned unchanged.
func trimOctetZeros(s string) string {
	addr, bits, ok := strings.Cut(s, "/")
	octets := strings.Split(addr, ".")
	if !ok || len(octets) != 4 {
		return s
	}
	for i, o := range octets {
		n, err := strconv.ParseUint(o, 10, 8)
		if err != nil || o == "" || o[0] == '+' {
			return s
		}
		octets[i] = strconv.FormatUint(n, 10)
	}
	return strings.Join(octets, ".") + "/" + bits
}

var cidrHostFunc = function.New(&function.Spec{
	Description: "Calculates a full host IP address within a given IP network address prefix.",
	Params: []function.Parameter{
		{Name: "prefix", Type: cty.String},
		{Name: "hostnum", Type: cty.Number},
	},
	Type: function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		var hostNum *big.Int
		if err := gocty.FromCtyValue(args[1], &hostNum); err != nil {
			return cty.UnknownVal(cty.String), err
		}
		network, err := parseCIDR(args[0].AsString())
		if err != nil {
			return cty.UnknownVal(cty.String), err
		}
		ip, err := cidr.HostBig(network, hostNum)
		if err != nil {
			return cty.UnknownVal(cty.String), err
		}
		return cty.StringVal(ip.String()), nil
	},
})

var cidrNetmaskFunc = function.New(&function.Spec{
	Description: "Converts an IPv4 address prefix given in CIDR notation into a subnet mask address.",
	Params:      []function.Parameter{{Name: "prefix", Type: cty.String}},
	Type:        function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		network, err := parseCIDR(args[0].AsString())
		if err != nil {
			return cty.UnknownVal(cty.String), err
		}
		if network.IP.To4() == nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("IPv6 addresses cannot have a netmask: %s", args[0].AsString())
		}
		return cty.StringVal(net.IP(network.Mask).String()), nil
	},
})

var cidrSubnetFunc = function.New(&function.Spec{
	Description: "Calculates a subnet address within given IP network address prefix.",
	Params: []function.Parameter{
		{Name: "prefix", Type: cty.String},
		{Name: "newbits", Type: cty.Number},
		{Name: "netnum", Type: cty.Number},
	},
	Type: function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		var newbits int
		if err := gocty.FromCtyValue(args[1], &newbits); err != nil {
			return cty.UnknownVal(cty.String), err
		}
		var netnum *big.Int
		if err := gocty.FromCtyValue(args[2], &netnum); err != nil {
			return cty.UnknownVal(cty.String), err
		}
		network, err := parseCIDR(args[0].AsString())
		if err != nil {
			return cty.UnknownVal(cty.String), err
		}
		sub, err := cidr.SubnetBig(network, newbits, netnum)
		if err != nil {
			return cty.UnknownVal(cty.String), err
		}
		return cty.StringVal(sub.String()), nil
	},
})

var cidrSubnetsFunc = function.New(&function.Spec{
	Description: "Calculates a sequence of consecutive IP address ranges within a particular CIDR prefix.",
	Params:      []function.Parameter{{Name: "prefix", Type: cty.String}},
	VarParam:    &function.Parameter{Name: "newbits", Type: cty.Number},
	Type:        function.StaticReturnType(cty.List(cty.String)),
	Impl: func(args []cty.Value, ret cty.Type) (cty.Value, error) {
		network, err := parseCIDR(args[0].AsString())
		if err != nil {
			return cty.UnknownVal(ret), function.NewArgError(0, err)
		}
		if len(args) == 1 {
			return cty.ListValEmpty(cty.String), nil
		}
		out, err := subnets(network, args[1:])
		if err != nil {
			return cty.UnknownVal(ret), err
		}
		return cty.ListVal(out), nil
	},
})

// subnets allocates consecutive subnets of network, each extending its
// prefix by the matching number of bits.
func subnets(network *net.IPNet, lengths []cty.Value) ([]cty.Value, error) {
	start, _ := network.Mask.Size()
	var first int
	if err := gocty.FromCtyValue(lengths[0], &first); err != nil {
		return nil, function.NewArgError(1, err)
	}
	current, _ := cidr.PreviousSubnet(network, first+start)
	out := make([]cty.Value, len(lengths))
	for i, lv := range lengths {
		var length int
		if err := gocty.FromCtyValue(lv, &length); err != nil {
			return nil, function.NewArgError(i+1, err)
		}
		if length < 1 {
			return nil, function.NewArgErrorf(i+1, "must extend prefix by at least one bit")
		}
		if length > 32 {
			return nil, function.NewArgErrorf(i+1, "may not extend prefix by more than 32 bits")
		}
		length += start
		if bits := len(network.IP) * 8; length > bits {
			proto := map[int]string{32: "IPv4", 128: "IPv6"}[bits]
			return nil, function.NewArgErrorf(i+1, "would extend prefix to %d bits, which is too long for an %s address", length, proto)
		}
		next, rollover := cidr.NextSubnet(current, length)
		if rollover || !network.Contains(next.IP) {
			return nil, function.NewArgErrorf(i+1, "not enough remaining address space for a subnet with a prefix of %d bits after %s", length, current.String())
		}
		current = next
		out[i] = cty.StringVal(current.String())
	}
	return out, nil
}
