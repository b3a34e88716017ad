package app

import "mas/internal/layout"

// Mode is the kind of session start creates: layout's, which the session's
// tmux session is marked with.
type Mode = layout.Mode

// The two modes.
const (
	Legacy   = layout.Legacy   // the project's shared session
	Isolated = layout.Isolated // a session with a workspace of its own
)

// SessionMode decides the mode of the session start creates:
// MAS_SESSION_MODE when set; else isolated when MAS_SESSION_ID is set (only
// an isolated session has an id, and the original's API sets the id alone);
// else legacy. MAS_SESSION_MODE=legacy with an id is a contradiction.
func (e Env) SessionMode() (Mode, error) {
	mode, id := e.Getenv("MAS_SESSION_MODE"), e.Getenv("MAS_SESSION_ID")
	switch mode {
	case "":
		if id != "" {
			return Isolated, nil
		}
		return Legacy, nil
	case string(Legacy):
		if id != "" {
			return "", Usagef("MAS_SESSION_MODE=legacy cannot be used with MAS_SESSION_ID: a legacy session has no id (unset one of them)")
		}
		return Legacy, nil
	case string(Isolated):
		return Isolated, nil
	default:
		return "", Usagef("MAS_SESSION_MODE must be legacy or isolated, not %q", mode)
	}
}
