// Command pluginhook is the hook plugin_test.go builds into a plugin: it
// prints its system and what it read on stdin, and exits 3.
package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
)

func main() {
	in, _ := io.ReadAll(os.Stdin)
	fmt.Printf("%s/%s %s", runtime.GOOS, runtime.GOARCH, in)
	os.Exit(3)
}
