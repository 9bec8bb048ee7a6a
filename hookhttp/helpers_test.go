package hookhttp_test

import (
	"log/slog"

	"github.com/gohooks/hook/hookhttp"
)

// quiet logs nothing, not even failures.
var quiet = &hookhttp.Options{Logger: slog.New(slog.DiscardHandler)}
