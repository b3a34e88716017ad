package legacy

import (
	"errors"
	"io/fs"
	"time"

	"mas/envfile"
	"mas/internal/layout"
)

// Listed is the root's legacy session as session list shows it.
type Listed struct {
	Name    string // its tmux session
	Root    string
	Running bool // its agents run in tmux session Name (or, tmux unknown, .mas_session says so)
	// Created is when tmux made the session, for one that runs;
	// StartedAt is .mas_session's STARTED_AT (local time, no zone) when
	// the file names the session.
	Created   time.Time
	StartedAt string
}

// CreatedAt is when the session started, in UTC as RFC 3339, or "" when
// neither .mas_session nor tmux says. .mas_session's STARTED_AT comes
// first, as status tells it (StartedAt): mas takes it a moment before tmux
// makes the session, and the two can fall on either side of a second.
func (l Listed) CreatedAt() string {
	t, err := time.ParseInLocation(startedAtLayout, l.StartedAt, time.Local)
	if err != nil {
		if t = l.Created; t.IsZero() {
			return ""
		}
	}
	return t.UTC().Format(time.RFC3339)
}

// StartedAt is when root's legacy session name started, as its
// .mas_session says (the original's status told that time); false when the
// file does not name that session, cannot be read or trusted (Select
// warns of that), or holds no time mas wrote.
func StartedAt(root, name string) (time.Time, bool) {
	named, startedAt, err := readSessionFile(root)
	if err != nil || named != name {
		return time.Time{}, false
	}
	t, err := time.ParseInLocation(startedAtLayout, startedAt, time.Local)
	return t, err == nil
}

// startedAtLayout is how .mas_session writes STARTED_AT, as the original
// did.
const startedAtLayout = "2006-01-02 15:04:05"

// List finds root's legacy session among the tmux sessions a caller
// listed (layout.ListSessions, or layout.Refs of a snapshot), with no
// tmux call of its own. A tmux session runs it when its marks say it is
// the legacy session of root (layout.Owner), whatever its name, or when
// it has no marks and root's .mas_session names it (made by an older mas,
// or by the original). Marks that name another root, or an isolated
// session, are never root's. When none runs, the session .mas_session
// names is listed stopped: its tmux server went away, or it was killed
// behind mas's back (mas stop removes the file). known is false when tmux
// could not be asked: the file is then taken at its word. A .mas_session
// that cannot be trusted (a link, a FIFO, writable by others, a line mas
// does not read) is passed over, and its error returned beside what the
// marks tell.
func List(root string, running []layout.Ref, known bool) ([]Listed, error) {
	name, startedAt, err := readSessionFile(root)
	var list []Listed
	for _, r := range running {
		if runsIt(r, root, name) {
			l := Listed{Name: r.Name, Root: root, Running: true, Created: r.Created}
			if r.Name == name {
				l.StartedAt = startedAt
			}
			list = append(list, l)
		}
	}
	if len(list) == 0 && name != "" {
		list = append(list, Listed{Name: name, Root: root, Running: !known, StartedAt: startedAt})
	}
	return list, err
}

// Runs tells whether tmux session r runs root's legacy session, as List
// tells it.
func Runs(root string, r layout.Ref) bool {
	name, _, _ := readSessionFile(root)
	return runsIt(r, root, name)
}

// runsIt tells whether tmux session r runs root's legacy session, which
// .mas_session calls name ("" when it names none): by r's marks, or by
// its name when it has none.
func runsIt(r layout.Ref, root, name string) bool {
	if r.Owner.Marked() {
		return r.Owner.Mode == layout.Legacy && layout.SamePath(r.Owner.Root, root)
	}
	return name != "" && r.Name == name
}

// Describe is List for the session called name: as List shows it, or
// stopped when List does not show it.
func Describe(root, name string, running []layout.Ref, known bool) Listed {
	list, _ := List(root, running, known)
	for _, l := range list {
		if l.Name == name {
			return l
		}
	}
	return Listed{Name: name, Root: root}
}

// readSessionFile reads the session root's .mas_session names and when it
// started; a missing file names none.
func readSessionFile(root string) (name, startedAt string, err error) {
	vars, err := envfile.Read(SessionFile(root), sessionKeys)
	if errors.Is(err, fs.ErrNotExist) {
		return "", "", nil
	}
	if err != nil {
		return "", "", err
	}
	m := envfile.Map(vars)
	return m["SESSION_NAME"], m["STARTED_AT"], nil
}
