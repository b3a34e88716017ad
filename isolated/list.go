package isolated

import (
	"context"
	"os"
	"path/filepath"

	"mas/layout"
	"mas/tmux"
)

// Listed is one session as "session list" shows it. Status is what the
// .session file says, reconciled with tmux: an active session whose tmux
// session is gone is "stopped", one whose file cannot be read is "error".
type Listed struct {
	Session
	Error string // why Status is "error"
}

// List returns every session under root, sorted by id, with one tmux call
// for all of them. tmuxErr reports a tmux that could not be asked; the
// statuses are then the recorded ones.
func List(ctx context.Context, c tmux.Client, root string) (sessions []Listed, tmuxErr, err error) {
	ids, err := IDs(root)
	if err != nil {
		return nil, nil, err
	}
	names, tmuxErr := layout.Sessions(ctx, c)
	for _, id := range ids {
		sessions = append(sessions, describe(root, id, names))
	}
	return sessions, tmuxErr, nil
}

// Describe is List for one session, with one tmux call.
func Describe(ctx context.Context, c tmux.Client, root, id string) (Listed, error) {
	names := map[string]bool{}
	running, err := layout.Exists(ctx, c, TmuxName(id))
	names[TmuxName(id)] = running
	if err != nil {
		names = nil
	}
	return describe(root, id, names), err
}

// describe reconciles one session with the set of live tmux names; nil
// names means tmux could not be asked.
func describe(root, id string, names map[string]bool) Listed {
	s, err := Load(root, id)
	if err != nil {
		return Listed{Session: Session{ID: id, TmuxName: TmuxName(id), Status: "error", Dir: Dir(root, id), Mode: "isolated"}, Error: err.Error()}
	}
	l := Listed{Session: *s}
	if names == nil {
		return l
	}
	switch alive := names[s.TmuxName]; {
	case s.Status == "active" && !alive:
		l.Status = "stopped"
	case s.Status == "creating" && !alive:
		l.Status, l.Error = "error", "creation did not finish"
	}
	return l
}

// Files lists what a session directory holds that people look for.
func (s *Session) Files() (config string, logs []string) {
	if _, err := os.Stat(filepath.Join(s.home, "config.json")); err == nil {
		config = filepath.Join(s.home, "config.json")
	}
	logs, _ = filepath.Glob(filepath.Join(s.home, "logs", "*.log"))
	return config, logs
}
