//go:build goexperiment.jsonv2

package hook

import jsonv2 "encoding/json/v2"

// errSkipFunc is what a MarshalToFunc returns to let the encoder handle a
// value itself: under GOEXPERIMENT=jsonv2 the go-json-experiment module
// aliases the standard library, which uses json.SkipFunc.
var errSkipFunc = jsonv2.SkipFunc
