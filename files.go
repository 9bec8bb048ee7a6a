package hook

// MemoryType is the kind of an instructions file.
type MemoryType string

// The values of [InstructionsLoaded.MemoryType].
const (
	MemoryUser    MemoryType = "User"
	MemoryProject MemoryType = "Project"
	MemoryLocal   MemoryType = "Local"
	MemoryManaged MemoryType = "Managed"
)

// LoadReason says why an instructions file was loaded.
type LoadReason string

// The values of [InstructionsLoaded.LoadReason].
const (
	LoadSessionStart    LoadReason = "session_start"
	LoadNestedTraversal LoadReason = "nested_traversal"
	LoadPathGlobMatch   LoadReason = "path_glob_match"
	LoadInclude         LoadReason = "include"
	LoadCompact         LoadReason = "compact"
)

// watchPaths returns the hookSpecificOutput for paths, or an untyped nil
// when paths is nil.
func watchPaths(name string, paths []string) any {
	if paths == nil {
		return nil
	}
	return &watchPathsSpecific{HookEventName: name, WatchPaths: paths}
}

// FileEvent says what happened to a watched file.
type FileEvent string

// The values of [FileChanged.Change].
const (
	FileEventChange FileEvent = "change"
	FileEventAdd    FileEvent = "add"
	FileEventUnlink FileEvent = "unlink"
)

// DirectorySource says how a directory was added.
type DirectorySource string

// The values of [DirectoryAdded.Source].
const (
	DirectorySlashCommand     DirectorySource = "slash_command"
	DirectoryRegisterRepoRoot DirectorySource = "register_repo_root"
)

// EventInstructionsLoaded fires when a CLAUDE.md or rules file is loaded.
const EventInstructionsLoaded = "InstructionsLoaded"

// InstructionsLoaded fires when a CLAUDE.md or rules file is loaded into
// the context. The matcher is tested against LoadReason. Nothing can be
// decided: the exit code is ignored and Claude Code discards the answer's
// fields.
type InstructionsLoaded struct {
	Event
	// FilePath is the loaded file's absolute path.
	FilePath string `json:"file_path"`
	// MemoryType says which kind of instructions the file holds.
	MemoryType MemoryType `json:"memory_type"`
	// LoadReason says why the file was loaded.
	LoadReason LoadReason `json:"load_reason"`
	// Globs are the rule's path globs (path_glob_match).
	Globs []string `json:"globs,omitempty"`
	// TriggerFilePath is the file whose access loaded the rule (lazy
	// loads).
	TriggerFilePath string `json:"trigger_file_path,omitempty"`
	// ParentFilePath is the file that included this one (include).
	ParentFilePath string `json:"parent_file_path,omitempty"`
}

// InstructionsLoadedOutput is the answer to an [InstructionsLoaded]
// event: only the common fields, which Claude Code discards for this
// event.
type InstructionsLoadedOutput struct {
	Common
}

// EventCwdChanged fires when the working directory changed.
const EventCwdChanged = "CwdChanged"

// CwdChanged fires when the session's working directory changed. It has
// no matcher. The answer can replace the FileChanged watch list (see
// [CwdChangedOutput]); exit code 2 only shows stderr to the user. The hook
// may append "export" lines to the file named by $CLAUDE_ENV_FILE.
type CwdChanged struct {
	Event
	// OldCwd is the previous working directory.
	OldCwd string `json:"old_cwd"`
	// NewCwd is the new working directory.
	NewCwd string `json:"new_cwd"`
}

// CwdChangedOutput is the answer to a [CwdChanged] event. SystemMessage
// is shown as a brief notice; Claude Code discards Halt for this event.
type CwdChangedOutput struct {
	Common

	// WatchPaths replaces the list of files whose changes fire
	// FileChanged. A nil slice leaves the list alone; a non-nil empty
	// slice clears it.
	WatchPaths []string
}

// watchPathsSpecific is the hookSpecificOutput of a CwdChanged or
// FileChanged answer.
type watchPathsSpecific struct {
	HookEventName string   `json:"hookEventName"`
	WatchPaths    []string `json:"watchPaths"`
}

// EventFileChanged fires when a watched file changed on disk.
const EventFileChanged = "FileChanged"

// FileChanged fires when a watched file changed on disk. The matcher is
// tested against the file's base name, and its "|"-separated names also
// build the watch list. The answer can replace the watch list (see
// [FileChangedOutput]); exit code 2 only shows stderr to the user. The
// hook may append "export" lines to the file named by $CLAUDE_ENV_FILE.
type FileChanged struct {
	Event
	// FilePath is the changed file's absolute path.
	FilePath string `json:"file_path"`
	// Change says what happened to the file ("event" on the wire).
	Change FileEvent `json:"event"`
}

// FileChangedOutput is the answer to a [FileChanged] event. SystemMessage
// is shown as a brief notice; Claude Code discards Halt for this event.
type FileChangedOutput struct {
	Common

	// WatchPaths replaces the list of files whose changes fire
	// FileChanged. A nil slice leaves the list alone; a non-nil empty
	// slice clears it.
	WatchPaths []string
}

// EventDirectoryAdded fires on /add-dir or the SDK's register_repo_root.
const EventDirectoryAdded = "DirectoryAdded"

// DirectoryAdded fires when a working directory is added (/add-dir, or the
// SDK's register_repo_root). The matcher is tested against Source. Nothing
// can be decided; after /add-dir, the answer's SystemMessage goes to
// Claude as context (see [DirectoryAddedOutput]).
type DirectoryAdded struct {
	Event
	// Directory is the added directory's absolute path.
	Directory string `json:"directory"`
	// Source says how it was added.
	Source DirectorySource `json:"source"`
}

// DirectoryAddedOutput is the answer to a [DirectoryAdded] event: only the
// common fields. For /add-dir, SystemMessage reaches Claude as context;
// for the SDK source it only reaches the debug log.
type DirectoryAddedOutput struct {
	Common
}
