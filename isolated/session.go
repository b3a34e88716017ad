package isolated

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"mas/envfile"
)

// Session is what a session's .session file says about it.
type Session struct {
	ID           string
	TmuxName     string
	Status       string // creating, active, stopped or error
	CreatedAt    string
	Dir          string
	UnitDir      string
	WorkflowsDir string
	Root         string // MAS_WORKSPACE_ROOT
	Mode         string // MAS_SESSION_MODE

	home string // the directory it was loaded from or created in
}

// Load reads the .session file of session id under root. Files written by
// the original tool, without our MAS_* keys, are read too.
func Load(root, id string) (*Session, error) {
	dir := Dir(root, id)
	fi, err := os.Lstat(dir)
	if err != nil {
		return nil, fmt.Errorf("session %s: %w", id, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("session %s: %s is not a directory (a symbolic link?)", id, dir)
	}
	vars, err := envfile.Read(filepath.Join(dir, ".session"), envfile.SessionKeys)
	if err != nil {
		return nil, err
	}
	m := envfile.Map(vars)
	for _, k := range []string{"SESSION_ID", "TMUX_SESSION", "UNIT_DIR", "WORKFLOWS_DIR", "SESSION_DIR"} {
		if m[k] == "" {
			return nil, fmt.Errorf("%s: %s is missing", filepath.Join(dir, ".session"), k)
		}
	}
	if m["SESSION_ID"] != id {
		return nil, fmt.Errorf("%s: SESSION_ID %s does not match its directory", filepath.Join(dir, ".session"), m["SESSION_ID"])
	}
	s := &Session{
		home:         dir,
		ID:           id,
		TmuxName:     m["TMUX_SESSION"],
		Status:       m["STATUS"],
		CreatedAt:    m["CREATED_AT"],
		Dir:          m["SESSION_DIR"],
		UnitDir:      m["UNIT_DIR"],
		WorkflowsDir: m["WORKFLOWS_DIR"],
		Root:         m["MAS_WORKSPACE_ROOT"],
		Mode:         m["MAS_SESSION_MODE"],
	}
	if s.Root == "" {
		s.Root = root
	}
	if s.Mode == "" {
		s.Mode = "isolated"
	}
	return s, nil
}

// Environment is the environment of the session's tmux session and of
// "mas env": what an agent of this session sees.
func (s *Session) Environment() []envfile.Var {
	return []envfile.Var{
		{Key: "SESSION_NAME", Value: s.TmuxName},
		{Key: "UNIT_DIR", Value: s.UnitDir},
		{Key: "WORKFLOWS_DIR", Value: s.WorkflowsDir},
		{Key: "MAS_SESSION_MODE", Value: s.Mode},
		{Key: "MAS_WORKSPACE_ROOT", Value: s.Root},
		{Key: "MAS_SESSION_ID", Value: s.ID},
		{Key: "MAS_SESSION_DIR", Value: s.Dir},
		{Key: "SESSION_DIR", Value: s.Dir},
	}
}

// vars is the .session content, keys in the original tool's order.
func (s *Session) vars() []envfile.Var {
	return []envfile.Var{
		{Key: "SESSION_ID", Value: s.ID},
		{Key: "TMUX_SESSION", Value: s.TmuxName},
		{Key: "STATUS", Value: s.Status},
		{Key: "CREATED_AT", Value: s.CreatedAt},
		{Key: "UNIT_DIR", Value: s.UnitDir},
		{Key: "WORKFLOWS_DIR", Value: s.WorkflowsDir},
		{Key: "SESSION_DIR", Value: s.Dir},
		{Key: "MAS_SESSION_DIR", Value: s.Dir},
		{Key: "MAS_WORKSPACE_ROOT", Value: s.Root},
		{Key: "MAS_SESSION_MODE", Value: s.Mode},
	}
}

// Metadata is metadata.json.
type Metadata struct {
	SessionID    string `json:"sessionId"`
	SessionName  string `json:"sessionName"`
	WorkingDir   string `json:"workingDir"`
	StartedAt    string `json:"startedAt"`
	Status       string `json:"status"`
	Mode         string `json:"mode"`
	UnitDir      string `json:"unitDir"`
	WorkflowsDir string `json:"workflowsDir"`
}

// Metadata returns what metadata.json holds for s.
func (s *Session) Metadata() Metadata {
	return Metadata{
		SessionID: s.ID, SessionName: s.TmuxName, WorkingDir: s.Dir, StartedAt: s.CreatedAt,
		Status: s.Status, Mode: s.Mode, UnitDir: s.UnitDir, WorkflowsDir: s.WorkflowsDir,
	}
}

// save writes .session and metadata.json, each atomically, mode 0600.
func (s *Session) save() error {
	dir := s.home
	if err := envfile.Write(filepath.Join(dir, ".session"), s.vars(), envfile.SessionKeys); err != nil {
		return err
	}
	data, err := json.MarshalIndent(s.Metadata(), "", "  ")
	if err != nil {
		return err
	}
	return envfile.WriteAtomic(filepath.Join(dir, "metadata.json"), append(data, '\n'), 0o600)
}

// logEvent appends a line to logs/session.log; the log is for people, so a
// failure to write it is not an error.
func (s *Session) logEvent(t time.Time, event string) {
	f, err := os.OpenFile(filepath.Join(s.home, "logs", "session.log"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return
	}
	fmt.Fprintf(f, "%s %s %s\n", timestamp(t), s.TmuxName, event)
	f.Close()
}
