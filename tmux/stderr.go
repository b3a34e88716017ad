package tmux

import (
	"errors"
	"strings"
)

// What tmux says on stderr when there is nothing to act on, read in one
// place: the rest of mas asks these, never tmux's words.

// NoServer tells whether err is a tmux call that found no server on its
// socket: "no server running on …", "error connecting to … (…)".
func NoServer(err error) bool {
	return stderrHas(err, "no server running", "error connecting to")
}

// NoSession tells whether err is a tmux call whose target session does not
// exist: "can't find session: …", "no such session: …" (a session id that
// has ended), "session not found: …", or "no current target", a server
// with no session at all (its last one just ended, or exit-empty is off).
func NoSession(err error) bool {
	return stderrHas(err, "can't find session", "no such session", "session not found", "no current target")
}

// ServerExited tells whether err is a tmux call whose server went away
// while answering it: "server exited unexpectedly" ("lost server" before
// tmux 3).
func ServerExited(err error) bool {
	return stderrHas(err, "server exited unexpectedly", "lost server")
}

// DuplicateSession tells whether err is a new-session that found a
// session of its name: "duplicate session: …".
func DuplicateSession(err error) bool { return stderrHas(err, "duplicate session") }

// PanesGone tells whether err only says that panes were not found: every
// line of its stderr is "can't find pane: …" (a batch reports each).
func PanesGone(err error) bool {
	var te *Error
	if !errors.As(err, &te) || te.Stderr == "" {
		return false
	}
	for line := range strings.Lines(te.Stderr) {
		if !strings.HasPrefix(line, "can't find pane") {
			return false
		}
	}
	return true
}

// stderrHas tells whether err is a tmux failure whose stderr holds one of
// the messages.
func stderrHas(err error, messages ...string) bool {
	var te *Error
	if !errors.As(err, &te) {
		return false
	}
	for _, m := range messages {
		if strings.Contains(te.Stderr, m) {
			return true
		}
	}
	return false
}
