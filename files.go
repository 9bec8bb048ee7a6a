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

func (o *InstructionsLoadedOutput) appendAnswer(dst []byte, ev *Event) ([]byte, error) {
	if err := checkEvent(ev, EventInstructionsLoaded); err != nil {
		return dst, err
	}
	return appendWire(dst, answer{common: &o.Common})
}

// join merges n into a as [Chain] combines InstructionsLoaded answers: the common
// fields only.
func (a *InstructionsLoadedOutput) join(n *InstructionsLoadedOutput) (stop bool, err error) {
	a.Common.join(n.Common)
	return false, nil
}

// watchPaths returns the hookSpecificOutput for paths, or an untyped nil
// when paths is nil.
func watchPaths(name string, paths []string) any {
	if paths == nil {
		return nil
	}
	return &watchPathsSpecific{HookEventName: name, WatchPaths: paths}
}

func (o *CwdChangedOutput) appendAnswer(dst []byte, ev *Event) ([]byte, error) {
	if err := checkEvent(ev, EventCwdChanged); err != nil {
		return dst, err
	}
	return appendWire(dst, answer{common: &o.Common, specific: watchPaths(EventCwdChanged, o.WatchPaths)})
}

// join merges n into a as [Chain] combines CwdChanged answers: the watch
// paths' union, in order.
func (a *CwdChangedOutput) join(n *CwdChangedOutput) (stop bool, err error) {
	a.Common.join(n.Common)
	a.WatchPaths = unionPaths(a.WatchPaths, n.WatchPaths)
	return false, nil
}

// FileEvent says what happened to a watched file.
type FileEvent string

// The values of [FileChanged.Change].
const (
	FileEventChange FileEvent = "change"
	FileEventAdd    FileEvent = "add"
	FileEventUnlink FileEvent = "unlink"
)

func (o *FileChangedOutput) appendAnswer(dst []byte, ev *Event) ([]byte, error) {
	if err := checkEvent(ev, EventFileChanged); err != nil {
		return dst, err
	}
	return appendWire(dst, answer{common: &o.Common, specific: watchPaths(EventFileChanged, o.WatchPaths)})
}

// join merges n into a as [Chain] combines FileChanged answers: the watch
// paths' union, in order.
func (a *FileChangedOutput) join(n *FileChangedOutput) (stop bool, err error) {
	a.Common.join(n.Common)
	a.WatchPaths = unionPaths(a.WatchPaths, n.WatchPaths)
	return false, nil
}

// DirectorySource says how a directory was added.
type DirectorySource string

// The values of [DirectoryAdded.Source].
const (
	DirectorySlashCommand     DirectorySource = "slash_command"
	DirectoryRegisterRepoRoot DirectorySource = "register_repo_root"
)

func (o *DirectoryAddedOutput) appendAnswer(dst []byte, ev *Event) ([]byte, error) {
	if err := checkEvent(ev, EventDirectoryAdded); err != nil {
		return dst, err
	}
	return appendWire(dst, answer{common: &o.Common})
}

// join merges n into a as [Chain] combines DirectoryAdded answers: the common
// fields only.
func (a *DirectoryAddedOutput) join(n *DirectoryAddedOutput) (stop bool, err error) {
	a.Common.join(n.Common)
	return false, nil
}
