package layout

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"mas/tmux"
)

// The session options that name a session's owner (Owner). Formats read
// them as #{@mas_root}: a pane's format finds its session's options.
const (
	RootOption = "@mas_root"
	ModeOption = "@mas_session_mode"
	IDOption   = "@mas_session_id"
)

// Mode is the kind of a mas session: MAS_SESSION_MODE, and the mode its
// tmux session says it has (Owner).
type Mode string

// The two modes.
const (
	Legacy   Mode = "legacy"   // the project's shared session
	Isolated Mode = "isolated" // a session with a workspace of its own
)

// Owner says whose a tmux session is: the root and mode of the mas session
// that created it, and its id when it is isolated. Create sets it on the
// session as options, in the batch that builds it; Snapshot and
// ListSessions read it back. A field is "" when the session does not say:
// a session made by an older mas, by the original tool or by hand says
// nothing.
type Owner struct {
	Root string // the root ($ROOT)
	Mode Mode
	ID   string // an isolated session's id
}

// Marked tells whether the session says anything of its owner.
func (o Owner) Marked() bool { return o != Owner{} }

// Foreign tells whether what the session says of its owner is not want: a
// root that is neither want.Root nor another spelling of the same
// directory, another mode, another id. What the session does not say, and
// what want leaves empty, is not compared: an unmarked session is nobody's
// in particular.
func (o Owner) Foreign(want Owner) bool {
	return o.Root != "" && !SamePath(o.Root, want.Root) ||
		o.Mode != "" && want.Mode != "" && o.Mode != want.Mode ||
		o.ID != "" && want.ID != "" && o.ID != want.ID
}

// String names the owner for people, its root quoted and its id made
// Printable (a process in the session can set both): "isolated session
// ID of root "/r"", "the legacy session of root "/r"".
func (o Owner) String() string {
	var b strings.Builder
	switch {
	case o.Mode == Isolated && o.ID != "":
		b.WriteString("isolated session " + Printable(o.ID))
	case o.Mode == Legacy:
		b.WriteString("the legacy session")
	case o.ID != "":
		b.WriteString("session " + Printable(o.ID))
	default:
		b.WriteString("a session")
	}
	if o.Root != "" {
		fmt.Fprintf(&b, " of root %q", o.Root)
	}
	return b.String()
}

// OwnerFromEnv is the owner a session's environment names, as mas before
// the session options set it (MAS_WORKSPACE_ROOT, MAS_SESSION_MODE,
// MAS_SESSION_ID); an empty variable says nothing.
func OwnerFromEnv(env map[string]string) Owner {
	return Owner{Root: env["MAS_WORKSPACE_ROOT"], Mode: Mode(env["MAS_SESSION_MODE"]), ID: env["MAS_SESSION_ID"]}
}

// setOwner is the commands that mark session name as o's.
func setOwner(name string, o Owner) [][]string {
	var cmds [][]string
	for _, opt := range o.Options() {
		cmds = append(cmds, []string{"set-option", "-t", tmux.SessionWindows(name), opt[0], opt[1]})
	}
	return cmds
}

// Options are the session options, name and value, that say a session is
// o's, as Create sets them: a field that is empty is not set.
func (o Owner) Options() [][2]string {
	var opts [][2]string
	for _, opt := range [][2]string{{RootOption, o.Root}, {ModeOption, string(o.Mode)}, {IDOption, o.ID}} {
		if opt[1] != "" {
			opts = append(opts, [2]string{opt[0], quoteOption(opt[1])})
		}
	}
	return opts
}

// parseOwner reads the three fields that hold RootOption, ModeOption and
// IDOption, in this order.
func parseOwner(f []string) Owner {
	return Owner{Root: unquoteOption(f[0]), Mode: Mode(unquoteOption(f[1])), ID: unquoteOption(f[2])}
}

// quoteOption writes a value as a Go string literal in ASCII: tmux prints
// a format's values as they are, and a root may hold bytes that tmux
// replaces for a client it takes to be no UTF-8 one (and a tab or a
// newline, which no listing splits by, see listing).
func quoteOption(v string) string { return strconv.QuoteToASCII(v) }

// unquoteOption reads a value quoteOption wrote; one it did not write (set
// by hand) is taken as it is.
func unquoteOption(v string) string {
	if s, err := strconv.Unquote(v); err == nil && strings.HasPrefix(v, `"`) {
		return s
	}
	return v
}

// SamePath reports whether got, a path read from a file or from tmux,
// names want: the same clean path, or another spelling (a link) of the
// same existing file.
func SamePath(got, want string) bool {
	if got == "" || !filepath.IsAbs(got) {
		return false
	}
	if filepath.Clean(got) == want {
		return true
	}
	a, err := os.Stat(got)
	if err != nil {
		return false
	}
	b, err := os.Stat(want)
	return err == nil && os.SameFile(a, b)
}
