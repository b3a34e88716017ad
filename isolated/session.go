package isolated

import (
	"fmt"
	"os"
	"path/filepath"

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
