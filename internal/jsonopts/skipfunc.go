//go:build !goexperiment.jsonv2 || go1.27

package jsonopts

import (
	"errors"
)

// SkipFunc is what a MarshalToFunc returns to let the encoder handle a
// value itself. The go-json-experiment module uses errors.ErrUnsupported,
// and so does the standard library's encoding/json/v2 from Go 1.27 on
// (where jsonv2 is on by default and the module aliases it); only Go
// 1.25 and 1.26 under GOEXPERIMENT=jsonv2 use json.SkipFunc
// (see skipfunc_jsonv2.go).
var SkipFunc = errors.ErrUnsupported
