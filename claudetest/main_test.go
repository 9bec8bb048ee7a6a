package claudetest_test

import (
	"os"
	"testing"

	"github.com/gohooks/hook/claudetest"
)

func TestMain(m *testing.M) { os.Exit(claudetest.Main(m)) }
