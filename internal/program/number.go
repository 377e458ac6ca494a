package program

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// parseDecimal reads a decimal literal. A literal that denotes the same
// number as the shortest form of a double (0.1, 2.5, 3e16) becomes that
// double, so it equals the same number coming back from a provider or the
// state; a literal with more digits than a double holds (a 20-digit
// integer) keeps them, through resource.ParseNumber.
func parseDecimal(lit string) (resource.Value, error) {
	f, err := strconv.ParseFloat(lit, 64)
	if err == nil && f != 0 && !math.IsInf(f, 0) && len(lit) <= 40 {
		a, okA := new(big.Rat).SetString(lit)
		b, okB := new(big.Rat).SetString(strconv.FormatFloat(f, 'g', -1, 64))
		if okA && okB && a.Cmp(b) == 0 {
			return resource.NewNumber(f), nil
		}
	}
	if err == nil && f == 0 {
		if z, ok := new(big.Rat).SetString(lit); ok && len(lit) <= 40 && z.Sign() == 0 {
			return resource.NewNumber(0), nil
		}
	}
	return resource.ParseNumber(lit)
}

// Bounds between which decimalText writes no exponent.
var (
	plainMin = big.NewFloat(1e-6)
	plainMax = big.NewFloat(1e21)
)

// decimalText writes a number as text: every digit it holds, and no
// exponent for magnitudes from 1e-6 up to 1e21, where encoding/json and
// JavaScript write none either. So a provider's 1000000 interpolates as
// "1000000", as terraform writes it, and not as "1e+06" (the shortest form
// NumberLiteral gives for a number held as a double).
func decimalText(v resource.Value) string {
	lit := v.NumberLiteral()
	if !strings.ContainsAny(lit, "eE") {
		return lit
	}
	f := v.BigNumber()
	abs := new(big.Float).Abs(f)
	if abs.Cmp(plainMin) < 0 || abs.Cmp(plainMax) >= 0 {
		return lit
	}
	return f.Text('f', -1)
}
