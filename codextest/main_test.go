package codextest_test

import (
	"os"
	"testing"

	"github.com/gohooks/hook/codextest"
)

func TestMain(m *testing.M) { os.Exit(codextest.Main(m)) }
