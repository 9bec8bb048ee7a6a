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
