package winpath

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestClean(t *testing.T) {
	for in, want := range map[string]string{
		`C:\Users\Dev\.env`:                 "c:/users/dev/.env",
		`c:/users/dev/.ENV`:                 "c:/users/dev/.env",
		`C:\Users\dev\.env `:                "c:/users/dev/.env",
		`C:\Users\dev\.env...`:              "c:/users/dev/.env",
		`C:\Users\dev\.env . .`:             "c:/users/dev/.env",
		`C:\Users\dev. \.env`:               "c:/users/dev/.env",
		`C:\Users\dev\.env::$DATA`:          "c:/users/dev/.env",
		`C:\Users\dev\.env:secret:$DATA`:    "c:/users/dev/.env",
		`\\?\C:\Users\dev\.env`:             "c:/users/dev/.env",
		`\\.\C:\Users\dev\.env`:             "c:/users/dev/.env",
		`\\?\UNC\server\share\dir\.env`:     "//server/share/dir/.env",
		`\\server\share\dir\..\.env`:        "//server/share/.env",
		`\\server\share`:                    "//server/share",
		`C:\`:                               "c:/",
		`C:`:                                "c:",
		`C:dir\.env`:                        "c:dir/.env",
		`C:\Users\dev\..\..\..\x`:           "c:/x",
		`/home/dev/acme-api/.env `:          "/home/dev/acme-api/.env",
		`/home/dev/acme-api/./sub/../.env.`: "/home/dev/acme-api/.env",
		`relative\dir\file.txt`:             "relative/dir/file.txt",
		`..\x`:                              "../x",
		`.`:                                 ".",
		`...`:                               "...",
	} {
		assert.Equal(t, want, Clean(in), in)
	}
}

func TestIsWindowsAndIsAbs(t *testing.T) {
	for p, want := range map[string][2]bool{ // IsWindows, IsAbs
		`C:\x`:          {true, true},
		`c:/x`:          {true, true},
		`C:x`:           {true, false},
		`\\server\sh`:   {true, true},
		`\\?\C:\x`:      {true, true},
		`/home/dev`:     {false, true},
		`x/y`:           {false, false},
		`1:\x`:          {false, false},
		`%USERPROFILE%`: {false, false},
		``:              {false, false},
	} {
		assert.Equal(t, want[0], IsWindows(p), "IsWindows(%q)", p)
		assert.Equal(t, want[1], IsAbs(p), "IsAbs(%q)", p)
	}
}

func TestShortNames(t *testing.T) {
	for _, c := range []struct {
		short, long string
		may         bool
	}{
		{"ENV~1", ".env", true},
		{"env~2", ".env", true},
		{"ENV~1.LOC", ".env.local", true},
		{"ENV~1", ".env.local", false}, // the alias of .env.local has an extension
		{"ENV~1.PRO", ".env.production", true},
		{"CREDEN~1", "credentials", true},
		{"CREDEN~1.JSO", "credentials.json", true},
		{"CREDEN~1.JSO", "credentials", false},
		{"ID_ED2~1", "id_ed25519", true},
		{"AWS~1", ".aws", true},
		{"PROGRA~1", "Program Files", true},
		{"ENV~1", "environment", false},
		{"README~1.MD", ".env", false},
		{".env", ".env", false}, // not a short name
		{"ENV~", ".env", false},
		{"ENV~X", ".env", false},
	} {
		assert.Equal(t, c.may, MayBeAlias(c.short, c.long), "%s for %s", c.short, c.long)
	}
}
