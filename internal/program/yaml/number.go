package yaml

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
	if i, ok := smallInteger(lit); ok {
		return resource.NewNumber(float64(i)), nil
	}
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

// smallInteger reads a literal of at most 15 digits and no point or
// exponent: a double holds it exactly, so the comparison through big.Rat
// that parseDecimal makes of other literals (most of a large program's
// number parsing) cannot fail.
func smallInteger(lit string) (int64, bool) {
	digits := strings.TrimPrefix(lit, "-")
	if len(digits) == 0 || len(digits) > 15 || strings.Trim(digits, "0123456789") != "" {
		return 0, false
	}
	i, err := strconv.ParseInt(lit, 10, 64)
	return i, err == nil
}
