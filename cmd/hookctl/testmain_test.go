package main

import (
	"os"
	"testing"
)

// envTestMain makes the test binary run hookctl's main, for the tests
// that need hookctl as a program (the helpers verify starts).
const envTestMain = "HOOKCTL_TEST_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(envTestMain) == "1" {
		main()
	}
	os.Exit(m.Run())
}
