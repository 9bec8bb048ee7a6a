package main

import "strings"

// Backup returns cmd with sed's in-place flag given a backup suffix
// (.bak), and true, when cmd is one simple sed command whose in-place
// flag is the word -i or --in-place; otherwise cmd and false. It reads
// the words as a POSIX shell does for quoting, and gives up on anything
// it does not read fully: lists, pipes, redirections, substitutions,
// escapes and unclosed quotes.
func Backup(cmd string) (string, bool) {
	type word struct{ start, end int }
	var words []word
	start, quote := -1, byte(0)
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if quote == '"' && (c == '$' || c == '`' || c == '\\') {
				return cmd, false
			}
		case c == '\'' || c == '"':
			quote = c
			if start < 0 {
				start = i
			}
		case c == ' ' || c == '\t':
			if start >= 0 {
				words = append(words, word{start, i})
				start = -1
			}
		case strings.IndexByte(";&|<>()`$\\\n#*?[]{}~", c) >= 0:
			return cmd, false
		default:
			if start < 0 {
				start = i
			}
		}
	}
	if quote != 0 {
		return cmd, false
	}
	if start >= 0 {
		words = append(words, word{start, len(cmd)})
	}
	if len(words) < 2 || cmd[words[0].start:words[0].end] != "sed" {
		return cmd, false
	}
	for _, w := range words[1:] {
		s := cmd[w.start:w.end]
		var repl string
		switch {
		case s == "--":
			return cmd, false // only operands follow
		case s == "-i":
			repl = "-i.bak"
		case s == "--in-place":
			repl = "--in-place=.bak"
		case strings.HasPrefix(s, "--in-place="),
			!strings.HasPrefix(s, "--") && strings.HasPrefix(s, "-") && strings.Contains(s, "i"):
			return cmd, false // a suffix already (-i.bak), or -i among other flags (-ni): left alone
		default:
			continue
		}
		return cmd[:w.start] + repl + cmd[w.end:], true
	}
	return cmd, false
}
