package inputedit

import (
	"errors"
	"fmt"

	"github.com/gohooks/hook/internal/rawjson"
)

// ObjectError wraps a failure to read a JSON object with what was being read.
func ObjectError(what string, err error) error {
	if errors.Is(err, rawjson.ErrNotObject) {
		return fmt.Errorf("hook: %s is %w", what, err)
	}
	return fmt.Errorf("hook: %s: %w", what, err)
}
