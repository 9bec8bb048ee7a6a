//go:build !goexperiment.jsonv2

package wire

import (
	"errors"
	"github.com/go-json-experiment/json/jsontext"
)

// SkipFunc is what a MarshalToFunc returns to let the encoder handle a
// value itself. The go-json-experiment module uses errors.ErrUnsupported;
// under GOEXPERIMENT=jsonv2 the module aliases the standard library, which
// uses json.SkipFunc (see skipfunc_jsonv2.go).
var SkipFunc = errors.ErrUnsupported

// tokenFloat returns the value of the JSON number tok as a double, ±Inf
// beyond its range. The standard library's Token.Float returns no error
// value; the module's does.
func tokenFloat(tok jsontext.Token) float64 {
	f, _ := tok.Float()
	return f
}
