package sdkdecl

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// tokKind is the kind of a token.
type tokKind uint8

const (
	tokEOF      tokKind = iota
	tokIdent            // an identifier or keyword
	tokString           // a '…' or "…" string; text is its value
	tokNumber           // a numeric literal
	tokTemplate         // a `…` template literal, kept whole
	tokPunct            // punctuation: one character, or => or ...
)

// token is one lexical token of a declaration file.
type token struct {
	kind tokKind
	text string
	line int
}

// lex splits src into tokens, dropping white space and comments.
func lex(src string) ([]token, error) {
	var toks []token
	line := 1
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
		case strings.HasPrefix(src[i:], "//"):
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case strings.HasPrefix(src[i:], "/*"):
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				return nil, fmt.Errorf("line %d: unterminated comment", line)
			}
			line += strings.Count(src[i:i+2+end], "\n")
			i += 2 + end + 2
		case c == '\'' || c == '"':
			s, n, err := lexString(src[i:])
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", line, err)
			}
			toks = append(toks, token{tokString, s, line})
			line += strings.Count(src[i:i+n], "\n")
			i += n
		case c == '`':
			n, err := lexTemplate(src[i:])
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", line, err)
			}
			toks = append(toks, token{tokTemplate, src[i : i+n], line})
			line += strings.Count(src[i:i+n], "\n")
			i += n
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9':
			j := i + 1
			for j < len(src) && (isIdentByte(src[j]) || src[j] == '.') {
				j++
			}
			toks = append(toks, token{tokNumber, src[i:j], line})
			i = j
		case isIdentStart(src[i:]):
			j := i
			for j < len(src) {
				r, n := utf8.DecodeRuneInString(src[j:])
				if r != '$' && r != '_' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
					break
				}
				j += n
			}
			toks = append(toks, token{tokIdent, src[i:j], line})
			i = j
		case strings.HasPrefix(src[i:], "=>"):
			toks = append(toks, token{tokPunct, "=>", line})
			i += 2
		case strings.HasPrefix(src[i:], "..."):
			toks = append(toks, token{tokPunct, "...", line})
			i += 3
		default:
			_, n := utf8.DecodeRuneInString(src[i:])
			toks = append(toks, token{tokPunct, src[i : i+n], line})
			i += n
		}
	}
	return append(toks, token{tokEOF, "", line}), nil
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isIdentStart(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return r == '$' || r == '_' || unicode.IsLetter(r)
}

// lexString reads the quoted string at the start of s and returns its
// value and length in bytes.
func lexString(s string) (string, int, error) {
	q := s[0]
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '\n':
			return "", 0, fmt.Errorf("newline in string %s", s[:i])
		case q:
			return unquote(s[1:i]), i + 1, nil
		}
	}
	return "", 0, fmt.Errorf("unterminated string")
}

// unquote decodes the escapes of a JavaScript string body: the escapes
// JavaScript and Go share, \u{…} code points, and \', \" alike. An
// escape it does not know (a legacy octal one, say) is kept as written,
// so a string never makes a file unreadable.
func unquote(body string) string {
	if !strings.Contains(body, `\`) {
		return body
	}
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		if body[i] != '\\' || i+1 == len(body) {
			b.WriteByte(body[i])
			continue
		}
		switch c := body[i+1]; {
		case c == '\'' || c == '"' || c == '`' || c == '\\' || c == '/':
			b.WriteByte(c)
			i++
		case c == '\n':
			i++
		case c == 'u' && i+2 < len(body) && body[i+2] == '{':
			end := strings.IndexByte(body[i+3:], '}')
			if end < 0 {
				b.WriteByte('\\')
				continue
			}
			v, err := strconv.ParseUint(body[i+3:i+3+end], 16, 32)
			if err != nil || v > utf8.MaxRune {
				b.WriteByte('\\')
				continue
			}
			b.WriteRune(rune(v))
			i += 3 + end
		default:
			v, _, tail, err := strconv.UnquoteChar(body[i:], '"')
			if err != nil {
				b.WriteByte('\\')
				continue
			}
			b.WriteRune(v)
			i = len(body) - len(tail) - 1
		}
	}
	return b.String()
}

// lexTemplate returns the length of the template literal at the start of
// s, including its ${…} substitutions, which may nest.
func lexTemplate(s string) (int, error) {
	depth := 0 // open braces inside the current substitution
	subst := 0 // nesting of substitutions
	for i := 1; i < len(s); i++ {
		switch {
		case s[i] == '\\':
			i++
		case subst == 0 && s[i] == '`':
			return i + 1, nil
		case strings.HasPrefix(s[i:], "${"):
			subst++
			i++
		case subst > 0 && s[i] == '{':
			depth++
		case subst > 0 && s[i] == '}':
			if depth > 0 {
				depth--
			} else {
				subst--
			}
		}
	}
	return 0, fmt.Errorf("unterminated template literal")
}
