// Package isolated runs MAS sessions that each have a workspace of their
// own under $ROOT/sessions/<id>: its own unit and workflow copies, its own
// .session file and its own tmux session mas-<first 8 characters of id>.
package isolated

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/google/uuid"
)

// ErrMalformedID is a session id argument that is none of the accepted
// forms; callers treat it as a usage error.
var ErrMalformedID = errors.New("malformed session id")

// ErrNoSession is returned when no session matches an id.
var ErrNoSession = errors.New("no such session")

// Refusals of Resume and Remove, which leave the session as it is; the
// first two read as the end of "it …" about the session.
var (
	// ErrRunning: the session runs.
	ErrRunning = errors.New("is running")
	// ErrBusy: another process is creating or resuming the session.
	ErrBusy = errors.New("is being created or resumed by another process")
	// ErrNameTaken: another tmux session has the session's tmux name.
	ErrNameTaken = errors.New("tmux name taken")
)

// ValidateNewID accepts only what a new session may be called: a canonical
// lower-case UUID version 4, so that the id is safe as a directory name and
// its first 8 characters are safe as a tmux name.
func ValidateNewID(id string) error {
	u, err := uuid.Parse(id)
	if err != nil || u.String() != id || u.Version() != 4 || u.Variant() != uuid.RFC4122 {
		return fmt.Errorf("%w %q: MAS_SESSION_ID must be a lower-case UUID version 4", ErrMalformedID, id)
	}
	return nil
}

// IsID reports whether s is a session id as mas makes them: a UUID in
// its canonical lower-case form, what uuid.Parse(s).String() gives back
// unchanged. Checked by hand: a listing checks every entry of the
// sessions directory.
func IsID(s string) bool { return len(s) == IDLen && idShaped(s) }

// IDLen is the length of a session id.
const IDLen = 36

// idShaped reports whether s is the start of a canonical id: lower-case
// hexadecimal digits, with '-' at the places of the 8-4-4-4-12 groups.
func idShaped(s string) bool {
	if len(s) > 36 {
		return false
	}
	for i := range len(s) {
		switch c := s[i]; i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
				return false
			}
		}
	}
	return true
}

func isShortID(s string) bool {
	if len(s) != 8 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// TmuxName is the tmux session name of a session id: tmuxPrefix and its
// first tmuxIDLen characters.
func TmuxName(id string) string { return tmuxPrefix + id[:tmuxIDLen] }

const (
	tmuxPrefix = "mas-"
	tmuxIDLen  = 8
)

// Dir is the directory of a session under root.
func Dir(root, id string) string { return filepath.Join(root, "sessions", id) }

// MinPrefix is the fewest characters of a session id that name it, as git
// takes an abbreviated commit: enough to tell sessions apart, too many to
// type one by chance.
const MinPrefix = 4

// isIDPrefix reports whether s could begin a canonical id: MinPrefix to 36
// lower-case hexadecimal digits, with the dashes where a UUID has them.
func isIDPrefix(s string) bool { return len(s) >= MinPrefix && idShaped(s) }

// AmbiguousError is a prefix that begins more than one session's id;
// callers treat it as a usage error, as git does an ambiguous abbreviation.
type AmbiguousError struct {
	Ref string   // as given
	IDs []string // the candidates, sorted
}

func (e *AmbiguousError) Error() string {
	return fmt.Sprintf("session %s is ambiguous: it matches %s", e.Ref, strings.Join(e.IDs, ", "))
}

// Find turns a session reference — the full id, any prefix of it of at
// least MinPrefix characters, or the tmux name mas-xxxxxxxx — into the
// full id of a session under root. A prefix that begins several ids is an
// *AmbiguousError listing them.
func Find(root, ref string) (string, error) {
	prefix := ref
	if short, ok := strings.CutPrefix(ref, "mas-"); ok {
		prefix = short
		if !isShortID(short) {
			prefix = "" // a tmux name is mas- and 8 characters, no fewer
		}
	}
	if !isIDPrefix(prefix) {
		return "", fmt.Errorf("%w %q: give the session's UUID, a prefix of it (%d characters or more) or mas-xxxxxxxx", ErrMalformedID, ref, MinPrefix)
	}
	if IsID(prefix) {
		// A whole id begins no other: the directory of that name is the
		// session's, if there is one.
		if err := checkSessionsDir(root); err != nil {
			return "", err
		}
		_, err := os.Lstat(Dir(root, prefix))
		switch {
		case err == nil:
			return prefix, nil
		case errors.Is(err, fs.ErrNotExist):
			return "", noSession(root, ref)
		}
		return "", err
	}
	names, err := sessionNames(root)
	if err != nil {
		return "", err
	}
	var matches []string
	for _, n := range names {
		if IsID(n) && strings.HasPrefix(n, prefix) {
			matches = append(matches, n)
		}
	}
	slices.Sort(matches)
	switch len(matches) {
	case 0:
		return "", noSession(root, ref)
	case 1:
		return matches[0], nil
	default:
		return "", &AmbiguousError{Ref: ref, IDs: matches}
	}
}

// noSession is the error of a reference to no session of root.
func noSession(root, ref string) error {
	return fmt.Errorf("%w %s under %s", ErrNoSession, ref, sessionsDir(root))
}

// IDs lists the ids of the session directories under root, sorted; names
// that are not canonical UUIDs are not sessions and are skipped.
// A sessions directory that is a symbolic link is refused.
func IDs(root string) ([]string, error) {
	names, err := sessionNames(root)
	if err != nil {
		return nil, err
	}
	ids := slices.DeleteFunc(names, func(n string) bool { return !IsID(n) })
	slices.Sort(ids)
	return ids, nil
}

// sessionNames lists the names in root's sessions directory, in the
// directory's own order (os.ReadDir's sorting and entries cost a command
// a few ms at 5,000 sessions): nothing when there is none yet; a sessions
// directory that is a symbolic link is refused.
func sessionNames(root string) ([]string, error) {
	if err := checkSessionsDir(root); err != nil {
		return nil, err
	}
	d, err := os.Open(sessionsDir(root))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.Readdirnames(-1)
}
