//go:build !unix

package main

import "os"

// peakRSS is not measured on this system.
func peakRSS(*os.ProcessState) int64 { return -1 }
