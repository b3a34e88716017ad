package isolated

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"mas/envfile"
	"mas/internal/activity"
	"mas/internal/layout"
	"mas/internal/report"
	"mas/internal/safefile"
)

// sessionKeys are the keys of a session's .session file, in the order they
// are written: the original tool's seven, then ours.
var sessionKeys = []string{
	"SESSION_ID", "TMUX_SESSION", "STATUS", "CREATED_AT", "UNIT_DIR", "WORKFLOWS_DIR", "SESSION_DIR",
	"MAS_SESSION_DIR", "MAS_WORKSPACE_ROOT", "MAS_SESSION_MODE",
}

// Status is what a session's files say of it (its .session's STATUS,
// metadata.json's and the registry's status), which List reconciles with
// tmux.
type Status string

// The statuses of a session.
const (
	Creating Status = "creating" // its creator is at work
	Active   Status = "active"   // its agents were started (List: they run)
	Stopped  Status = "stopped"  // stopped on purpose (List: or its agents are gone)
	Error    Status = "error"    // List: its files cannot be read, or its creation was interrupted; the journal: it ended before it became active
	Orphaned Status = "orphan"   // List: a tmux session of the root without a directory (an Orphan)
)

// Session is what a session's .session file says about it.
type Session struct {
	ID           string
	TmuxName     string
	Status       Status
	CreatedAt    string
	Dir          string
	UnitDir      string
	WorkflowsDir string
	Root         string      // MAS_WORKSPACE_ROOT
	Mode         layout.Mode // MAS_SESSION_MODE

	home string // the directory it was loaded from or created in
}

// Load reads the .session file of session id under root. Files written by
// the original tool, without our MAS_* keys, are read too.
//
// What a session is called and where it lives are derived from root and
// id, never taken from the file: the tmux name is mas-<first 8 characters
// of id> and the directories are under root/sessions/<id>. A file whose
// SESSION_ID, TMUX_SESSION, SESSION_DIR, MAS_SESSION_DIR, UNIT_DIR,
// WORKFLOWS_DIR, MAS_WORKSPACE_ROOT or MAS_SESSION_MODE says otherwise is
// an *InconsistentError.
func Load(root, id string) (*Session, error) {
	dir := Dir(root, id)
	fi, err := os.Lstat(dir)
	if err != nil {
		return nil, fmt.Errorf("session %s: %w", id, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("session %s: %s is not a directory (a symbolic link?)", id, dir)
	}
	file := filepath.Join(dir, ".session")
	vars, err := envfile.Read(file, sessionKeys)
	if err != nil {
		return nil, err
	}
	m := envfile.Map(vars)
	for _, k := range []string{"SESSION_ID", "TMUX_SESSION", "UNIT_DIR", "WORKFLOWS_DIR", "SESSION_DIR"} {
		if m[k] == "" {
			return nil, fmt.Errorf("%s: %s is missing", file, k)
		}
	}
	s := derived(root, id)
	s.Status, s.CreatedAt = Status(m["STATUS"]), m["CREATED_AT"]
	derived := []struct {
		key, want string
		path      bool // a path: another spelling of the same directory is fine
		optional  bool // the original tool does not write it
	}{
		{"SESSION_ID", s.ID, false, false},
		{"TMUX_SESSION", s.TmuxName, false, false},
		{"SESSION_DIR", s.Dir, true, false},
		{"MAS_SESSION_DIR", s.Dir, true, true},
		{"UNIT_DIR", s.UnitDir, true, false},
		{"WORKFLOWS_DIR", s.WorkflowsDir, true, false},
		{"MAS_WORKSPACE_ROOT", s.Root, true, true},
		{"MAS_SESSION_MODE", string(s.Mode), false, true},
	}
	for _, d := range derived {
		got, ok := m[d.key]
		if !ok && d.optional || got == d.want || d.path && layout.SamePath(got, d.want) {
			continue
		}
		return nil, &InconsistentError{File: file, Key: d.key, Got: got, Want: d.want}
	}
	return &s, nil
}

// derived is session id of root as far as it is derived from root and id:
// what Load takes from the file (its status and creation time) is empty.
func derived(root, id string) Session { return derivedIn(sessionsDir(root), root, id) }

// derivedIn is derived for a caller that joined root's sessions directory,
// sessions, once for many sessions: id, a directory's name, needs no
// cleaning, so the paths are concatenated (a listing derives thousands).
func derivedIn(sessions, root, id string) Session {
	// One string holds the three paths and the tmux name, each a part of
	// it: a listing derives thousands.
	sep := string(filepath.Separator)
	all := sessions + sep + id + sep + "unit" + sessions + sep + id + sep + "workflows" + TmuxName(id)
	dir := len(sessions) + 1 + len(id)
	unit := dir + len(sep+"unit")
	name := len(all) - len(tmuxPrefix) - tmuxIDLen
	return Session{home: all[:dir], ID: id, TmuxName: all[name:], Dir: all[:dir], UnitDir: all[:unit],
		WorkflowsDir: all[unit:name], Root: root, Mode: layout.Isolated}
}

// InconsistentError is a .session file that names another session, tmux
// session or directory than the one derived from where it is.
type InconsistentError struct {
	File, Key string
	Got, Want string
}

func (e *InconsistentError) Error() string {
	return fmt.Sprintf("%s: inconsistent: %s is %q, but this session's is %q", e.File, e.Key, e.Got, e.Want)
}

// entry is the session's registry entry.
func (s *Session) entry() indexEntry {
	return indexEntry{SessionID: s.ID, TmuxSession: s.TmuxName, Status: s.Status, CreatedAt: s.CreatedAt, WorkingDir: s.Dir,
		LastActivity: s.LastActivity()}
}

// LastActivity is when an agent of the session last reported an event, as
// its activity directory says (ISO-8601, "" before the first event): the
// lastActivity of the registry and of metadata.json.
func (s *Session) LastActivity() string {
	last := activity.Summarize(s.ActivityDir()).Last
	if last.IsZero() {
		return ""
	}
	return timestamp(last)
}

// Environment is the environment of the session's tmux session and of
// "mas env": what an agent of this session sees.
func (s *Session) Environment() []envfile.Var {
	return []envfile.Var{
		{Key: "SESSION_NAME", Value: s.TmuxName},
		{Key: "UNIT_DIR", Value: s.UnitDir},
		{Key: "WORKFLOWS_DIR", Value: s.WorkflowsDir},
		{Key: "MAS_SESSION_MODE", Value: string(s.Mode)},
		{Key: "MAS_WORKSPACE_ROOT", Value: s.Root},
		{Key: "MAS_SESSION_ID", Value: s.ID},
		{Key: "MAS_SESSION_DIR", Value: s.Dir},
		{Key: "SESSION_DIR", Value: s.Dir},
	}
}

// ActivityDir is where the session's agents report what they are doing
// (package activity).
func (s *Session) ActivityDir() string { return filepath.Join(s.Dir, "activity") }

// BinDir holds the links that make mas and mas_refactored.sh, first on
// the panes' PATH, the binary that started them (package binlink).
func (s *Session) BinDir() string { return filepath.Join(s.Dir, "bin") }

// Owner is whose the session's tmux session says it is: this session's,
// of its root (see layout.Owner).
func (s *Session) Owner() layout.Owner { return layout.Owner{Root: s.Root, Mode: s.Mode, ID: s.ID} }

// vars is the .session content, keys in the original tool's order.
func (s *Session) vars() []envfile.Var {
	return []envfile.Var{
		{Key: "SESSION_ID", Value: s.ID},
		{Key: "TMUX_SESSION", Value: s.TmuxName},
		{Key: "STATUS", Value: string(s.Status)},
		{Key: "CREATED_AT", Value: s.CreatedAt},
		{Key: "UNIT_DIR", Value: s.UnitDir},
		{Key: "WORKFLOWS_DIR", Value: s.WorkflowsDir},
		{Key: "SESSION_DIR", Value: s.Dir},
		{Key: "MAS_SESSION_DIR", Value: s.Dir},
		{Key: "MAS_WORKSPACE_ROOT", Value: s.Root},
		{Key: "MAS_SESSION_MODE", Value: string(s.Mode)},
	}
}

// Metadata is metadata.json.
type Metadata struct {
	SessionID    string      `json:"sessionId"`
	SessionName  string      `json:"sessionName"`
	WorkingDir   string      `json:"workingDir"`
	StartedAt    string      `json:"startedAt"`
	Status       Status      `json:"status"`
	Mode         layout.Mode `json:"mode"`
	UnitDir      string      `json:"unitDir"`
	WorkflowsDir string      `json:"workflowsDir"`
	LastActivity string      `json:"lastActivity,omitempty"` // Session.LastActivity
}

// Metadata returns what metadata.json holds for s.
func (s *Session) Metadata() Metadata {
	return Metadata{
		SessionID: s.ID, SessionName: s.TmuxName, WorkingDir: s.Dir, StartedAt: s.CreatedAt,
		Status: s.Status, Mode: s.Mode, UnitDir: s.UnitDir, WorkflowsDir: s.WorkflowsDir,
		LastActivity: s.LastActivity(),
	}
}

// save writes .session and metadata.json, each atomically, mode 0600, in
// that order (see NoteActivity), having first marked the session as
// changed for session list (markChanged).
func (s *Session) save() error {
	markChanged(filepath.Dir(s.home), s.ID)
	if err := envfile.Write(filepath.Join(s.home, ".session"), s.vars(), sessionKeys); err != nil {
		return err
	}
	return s.saveMetadata()
}

func (s *Session) saveMetadata() error {
	data, err := json.MarshalIndent(s.Metadata(), "", "  ")
	if err != nil {
		return err
	}
	return safefile.WriteAtomic(filepath.Join(s.home, "metadata.json"), append(data, '\n'), 0o600)
}

// logEvent appends a line to logs/session.log; the log is for people, so a
// failure to write it is a warning, not an error. Agents work next to it:
// a logs directory or a log that is a link, a FIFO in the log's place, or
// a log with another name (a hard link, which may be any file of the
// user's) is not written to (and never waited on). A session without a
// logs directory has no log.
func (s *Session) logEvent(t time.Time, event string, warn *report.Reporter) {
	dir := filepath.Join(s.home, "logs")
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		return
	}
	err := safefile.CheckDir(dir)
	var f *os.File
	if err == nil {
		f, err = safefile.OpenInPlace(filepath.Join(dir, "session.log"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	}
	if err != nil {
		warn.Warnf("session log not written: %v", err)
		return
	}
	fmt.Fprintf(f, "%s %s %s\n", timestamp(t), s.TmuxName, event)
	f.Close()
}
