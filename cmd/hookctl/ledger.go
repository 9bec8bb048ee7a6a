package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/go-json-experiment/json"

	"github.com/gohooks/hook/internal/jsonopts"
	"github.com/gohooks/hook/settings"
)

// The ledger lets uninstall give back a file's exact bytes. A settings
// file does not say whether its empty "hooks" object (or event array, or
// the file itself) was there before install filled it, so install writes
// down, per file, the containers it found empty and whether the file
// existed, in the user's configuration folder (hookctl/installs.json
// under os.UserConfigDir: ~/.config on Linux, ~/Library/Application
// Support on macOS, %AppData% on Windows), and uninstall keeps them. It
// holds file paths and whitespace only, never a file's contents. Without
// it (deleted, or no configuration folder) uninstall removes what it
// empties, as before. Under sudo with the user's HOME, settings.Update
// leaves the record (and its folder) owned by the user whose
// configuration folder it is in.
type ledger struct {
	// Files maps a settings file's absolute path (links resolved) to
	// the containers install found empty or missing in it.
	Files map[string][]settings.Container `json:"files"`
}

// ledgerFile returns the ledger's path.
func ledgerFile() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "hookctl", "installs.json"), nil
}

// ledgerKey is the absolute path of path with the links of its longest
// existing part resolved, so that a file keeps its key once it (or its
// folder) exists.
func ledgerKey(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	rest := ""
	for p := abs; ; {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(real, rest)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return abs
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = parent
	}
}

// readLedger reads the ledger; a missing or unreadable one is empty.
func readLedger(data []byte) ledger {
	var l ledger
	if len(data) > 0 {
		_ = json.Unmarshal(data, &l, jsonopts.Unmarshal())
	}
	if l.Files == nil {
		l.Files = map[string][]settings.Container{}
	}
	return l
}

// kept returns the containers install found empty or missing in the file
// at path.
func kept(path string) []settings.Container {
	lf, err := ledgerFile()
	if err != nil {
		return nil
	}
	data, err := settings.ReadRegular(lf)
	if err != nil {
		return nil
	}
	return readLedger(data).Files[ledgerKey(path)]
}

// sameContainer reports whether a and b are the same container.
func sameContainer(a, b settings.Container) bool {
	return a.Level == b.Level && a.Event == b.Event
}

// recordInstall writes down what install found of the containers cs of
// the file at path: an empty one (or no file) is recorded, one install
// made is forgotten (what the file had there is gone), and one with
// members changes nothing (a record made when it was empty still holds).
// Trouble with the ledger is not install's: it is ignored.
func recordInstall(path string, cs []settings.Container) {
	edit := func(l *ledger, key string) {
		recs := l.Files[key]
		for _, c := range cs {
			switch {
			case c.Found == settings.FoundEmpty || c.Level == settings.LevelFile && c.Found == settings.FoundMissing:
				recs = slices.DeleteFunc(recs, func(r settings.Container) bool { return sameContainer(r, c) })
				recs = append(recs, c)
			case c.Found == settings.FoundMissing:
				recs = slices.DeleteFunc(recs, func(r settings.Container) bool { return sameContainer(r, c) })
			}
		}
		if len(recs) == 0 {
			delete(l.Files, key)
		} else {
			l.Files[key] = recs
		}
	}
	updateLedger(path, edit)
}

// forget drops the records of the file at path, which uninstall deleted.
func forget(path string) {
	updateLedger(path, func(l *ledger, key string) { delete(l.Files, key) })
}

// updateLedger edits the ledger's record of path, under the ledger's
// lock, and drops the records of files that no longer exist (a record
// only serves uninstall on the file it describes, and install writes a
// new one), so that the ledger does not grow with files long gone.
func updateLedger(path string, edit func(l *ledger, key string)) {
	lf, err := ledgerFile()
	if err != nil {
		return
	}
	key := ledgerKey(path)
	_, _ = settings.Update(lf, func(data []byte) ([]byte, error) {
		l := readLedger(data)
		for k := range l.Files {
			if _, err := os.Lstat(k); k != key && errors.Is(err, fs.ErrNotExist) {
				delete(l.Files, k)
			}
		}
		edit(&l, key)
		if len(l.Files) == 0 {
			if data == nil {
				return nil, nil
			}
			return nil, settings.DeleteFile
		}
		out, err := json.Marshal(l, jsonopts.Deterministic(), jsonopts.Indented())
		if err != nil {
			return data, err
		}
		return append(out, '\n'), nil
	})
}
