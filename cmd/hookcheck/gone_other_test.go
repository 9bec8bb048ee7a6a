//go:build !unix

package main

import "os"

// gone reports whether the process pid has ended.
func gone(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return true
	}
	p.Release()
	return false
}
