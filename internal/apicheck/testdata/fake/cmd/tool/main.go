// Command tool is a command: not listed.
package main

// Exported is in a command.
var Exported int

func main() {}
