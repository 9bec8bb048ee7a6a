//go:build goexperiment.jsonv2

package wire

import (
	jsonv2 "encoding/json/v2"
	"github.com/go-json-experiment/json/jsontext"
)

// SkipFunc is what a MarshalToFunc returns to let the encoder handle a
// value itself: under GOEXPERIMENT=jsonv2 the go-json-experiment module
// aliases the standard library, which uses json.SkipFunc.
var SkipFunc = jsonv2.SkipFunc

// tokenFloat returns the value of the JSON number tok as a double, ±Inf
// beyond its range. The standard library's Token.Float returns no error
// value; the module's does.
func tokenFloat(tok jsontext.Token) float64 {
	return tok.Float()
}
