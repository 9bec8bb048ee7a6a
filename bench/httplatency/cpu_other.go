//go:build !unix

package main

import "errors"

// cpuTime is not measured on this system.
func cpuTime() (int64, error) {
	return 0, errors.New("no CPU time of the process on this system")
}
