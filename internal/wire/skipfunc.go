//go:build !goexperiment.jsonv2

package wire

import (
	"errors"
)

// SkipFunc is what a MarshalToFunc returns to let the encoder handle a
// value itself. The go-json-experiment module uses errors.ErrUnsupported;
// under GOEXPERIMENT=jsonv2 the module aliases the standard library, which
// uses json.SkipFunc (see skipfunc_jsonv2.go).
var SkipFunc = errors.ErrUnsupported
