//go:build goexperiment.jsonv2 && !go1.27

package jsonopts

import (
	jsonv2 "encoding/json/v2"
)

// SkipFunc is what a MarshalToFunc returns to let the encoder handle a
// value itself: under GOEXPERIMENT=jsonv2 on Go 1.25 and 1.26 the
// go-json-experiment module aliases the standard library, which uses
// json.SkipFunc there.
var SkipFunc = jsonv2.SkipFunc
