package wire

import "github.com/gohooks/hook/internal/jsonopts"

// SkipFunc is what a MarshalToFunc returns to let the encoder handle a
// value itself (see jsonopts.SkipFunc).
var SkipFunc = jsonopts.SkipFunc
