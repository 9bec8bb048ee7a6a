// Command gen writes the benchmark payloads of package payload into a
// directory, one file per payload named <name>.json, each ending with a
// newline as Claude Code sends it.
//
//	go run ./bench/gen DIR
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/gohooks/hook/internal/benchpayload"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gen DIR")
		os.Exit(2)
	}
	for _, p := range benchpayload.All() {
		name := filepath.Join(os.Args[1], p.Name+".json")
		if err := os.WriteFile(name, append(p.Data, '\n'), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}
