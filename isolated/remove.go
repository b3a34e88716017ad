package isolated

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"mas/internal/layout"
	"mas/internal/report"
	"mas/internal/undo"
	"mas/tmux"
)

// Remove deletes session id of root: its directory, with everything the
// agents wrote in it, and its index entry; the journal keeps a "removed"
// line. Only a directory sessions/<id> that Load accepts is removed: a
// session whose files cannot be read or are inconsistent, whose directory
// is a symbolic link (neither the link nor what it points to is touched),
// or that another process is creating or resuming (ErrBusy) is refused.
//
// A session whose agents run (see Session.Runs: tmux decides, with the
// marks of the create or resume that started them, whatever the files
// say) is refused with ErrRunning, unless force: then it is stopped first,
// as Stop does. A tmux session of the same name without marks next to a
// stopped session, or one that says it is another's, is not this
// session's, and is left alone.
//
// The directory is first moved aside under the registry lock, into a
// sessions/.removing-* directory that Remove holds an flock on until it
// has deleted it, so that the session is gone at once for every other
// command; deleting its files comes after. A removal killed before it
// ended leaves that directory, which Removals reports and Prune deletes.
// A refusal changes nothing; a failure to delete some of the files is an
// error that says where they are.
func Remove(ctx context.Context, c tmux.Client, root, id string, force bool, now time.Time, warn *report.Reporter) (*Session, error) {
	s, err := removable(root, id)
	if err != nil {
		return nil, err
	}
	running, err := isRunning(ctx, c, s)
	if err != nil {
		return nil, err
	}
	if running && !force {
		return nil, runningIn(s.TmuxName)
	}
	if running {
		if _, err := Stop(ctx, c, root, id, now, warn); err != nil {
			return nil, err
		}
	}
	var trash string
	var held *os.File
	var refusal error
	err = locked(ctx, root, func() error {
		trash, held, refusal = moveAside(ctx, c, root, id, now, warn)
		return nil
	})
	switch {
	case err != nil:
		return nil, &StepError{"lock session registry", err}
	case refusal != nil:
		return nil, refusal
	}
	defer held.Close()
	crashPoint("remove-moved")
	if err := os.RemoveAll(trash); err != nil {
		return s, fmt.Errorf("it is removed from the registry, but some of its files could not be deleted: %w (what is left is in %s)", err, trash)
	}
	return s, nil
}

// removable loads session id when it may be removed: Load accepts it and
// no other process is creating or resuming it.
func removable(root, id string) (*Session, error) {
	if creatorOf(Dir(root, id)) == creatorLive {
		return nil, fmt.Errorf("it %w", ErrBusy)
	}
	return Load(root, id)
}

// isRunning tells whether the session's agents run (see Session.Runs).
func isRunning(ctx context.Context, c tmux.Client, s *Session) (bool, error) {
	running, err := layout.ListSessions(ctx, c)
	if err != nil {
		return false, &StepError{"check tmux session " + s.TmuxName, err}
	}
	return runsIn(running, s), nil
}

// moveAside checks again, under the registry lock, that session id may be
// removed and does not run, then moves its directory into a new hidden
// directory of sessions/, drops its index entry and journals "removed". It
// returns that hidden directory, open with its flock held (see Removals);
// a refusal or a failure leaves everything as it was.
func moveAside(ctx context.Context, c tmux.Client, root, id string, now time.Time, warn *report.Reporter) (string, *os.File, error) {
	if err := checkRegistry(root); err != nil {
		return "", nil, &StepError{"check session registry", err}
	}
	s, err := removable(root, id)
	if err != nil {
		return "", nil, err
	}
	// A resume that ended since the first check runs it.
	switch running, err := isRunning(ctx, c, s); {
	case err != nil:
		return "", nil, err
	case running:
		return "", nil, runningIn(s.TmuxName)
	}
	var u undo.List
	trash, err := os.MkdirTemp(sessionsDir(root), removingPrefix+id[:8]+"-")
	if err != nil {
		return "", nil, &StepError{"move session directory aside", err}
	}
	u.Add("remove removal directory", func(context.Context) error { return os.Remove(trash) })
	held, err := holdRemoval(trash)
	if err != nil {
		return "", nil, fail(ctx, &u, "move session directory aside", err)
	}
	u.Add("unlock removal directory", func(context.Context) error { return held.Close() })
	if err := os.Rename(s.Dir, filepath.Join(trash, id)); err != nil {
		return "", nil, fail(ctx, &u, "move session directory aside", err)
	}
	u.Add("move session directory back", func(context.Context) error { return os.Rename(filepath.Join(trash, id), s.Dir) })
	if err := recordLocked(root, indexEntry{SessionID: id}, removed, now, warn); err != nil {
		return "", nil, fail(ctx, &u, "unregister session", err)
	}
	return trash, held, nil
}

// removingPrefix begins the name of the directory Remove moves a session
// into: sessions/.removing-<first 8 characters of its id>-<suffix>.
const removingPrefix = ".removing-"

// holdRemoval opens the directory a removal moves a session into and takes
// its flock, held until the removal has deleted it; the kernel drops it
// when the remover dies, even by SIGKILL.
func holdRemoval(dir string) (*os.File, error) {
	f, err := os.OpenFile(dir, os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	return f, nil
}

// Removal is what a session rm killed before it ended left: a
// sessions/.removing-* directory that nobody holds, with what is left of
// the session's directory in it, or nothing (killed before it moved it).
type Removal struct {
	Dir string // the .removing-* directory
	ID  string // the session whose directory it holds; "" when empty
	Err error  // not what a removal leaves: it is left as it is
}

// Removals returns what interrupted removals of root left, sorted by name:
// each sessions/.removing-<8 hex digits>-<suffix> directory (the name
// Remove gives it, the suffix os.MkdirTemp's) that is a real directory and that no removal holds. Its
// Err says why it is not one to finish: it holds something else than
// nothing or one session directory of the id its name begins. A directory
// that a removal holds, at work on it, is left out.
func Removals(root string) ([]Removal, error) {
	names, err := sessionNames(root)
	if err != nil {
		return nil, err
	}
	var out []Removal
	for _, name := range names {
		prefix, suffix, ok := strings.Cut(strings.TrimPrefix(name, removingPrefix), "-")
		if !strings.HasPrefix(name, removingPrefix) || !ok || !isShortID(prefix) || suffix == "" {
			continue
		}
		dir := filepath.Join(sessionsDir(root), name)
		f, err := os.OpenFile(dir, os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW, 0)
		if err != nil {
			continue // a link, or gone since: no removal's
		}
		r, held := removal(f, dir, prefix)
		f.Close()
		if !held {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b Removal) int { return strings.Compare(a.Dir, b.Dir) })
	return out, nil
}

// removal reads the removal directory dir, open as f, whose name begins
// with prefix; held tells that a removal is at work on it.
func removal(f *os.File, dir, prefix string) (r Removal, held bool) {
	r.Dir = dir
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB); err != nil {
		return r, true // EWOULDBLOCK: held; anything else: cannot tell, so kept
	}
	defer syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	names, err := f.Readdirnames(2)
	switch {
	case errors.Is(err, io.EOF):
		return r, false
	case err != nil:
		r.Err = err
	case len(names) != 1 || !IsID(names[0]) || !strings.HasPrefix(names[0], prefix):
		r.Err = fmt.Errorf("it holds %q, not the directory of a session %s…", names, prefix)
	default:
		if fi, err := os.Lstat(filepath.Join(dir, names[0])); err != nil || !fi.IsDir() {
			r.Err = fmt.Errorf("%s is not a directory", names[0])
		} else {
			r.ID = names[0]
		}
	}
	return r, false
}

// finishRemovals deletes what interrupted removals of root left (see
// Removals) and, for a session still in the index, drops its entry and
// journals "removed", as the removal would have; the caller holds the
// registry lock. It returns the ids of the sessions whose removal it
// finished; what it leaves is reported to warn.
func finishRemovals(root string, now time.Time, warn *report.Reporter) ([]string, error) {
	removals, err := Removals(root)
	if err != nil {
		return nil, err
	}
	var finished []string
	for _, r := range removals {
		if r.Err != nil {
			warn.Warnf("%s left as it is: %v", r.Dir, r.Err)
			continue
		}
		held, err := holdRemoval(r.Dir)
		if err != nil {
			continue // a removal took it up since
		}
		err = os.RemoveAll(r.Dir)
		held.Close()
		if err != nil {
			// What cannot be deleted (a directory an agent made
			// read-only) stops neither the rest of the prune nor the
			// next one.
			warn.Warnf("%s left as it is: %v", r.Dir, err)
			continue
		}
		if r.ID == "" {
			continue
		}
		finished = append(finished, r.ID)
		if err := unregisterRemoved(root, r.ID, now, warn); err != nil {
			return finished, err
		}
	}
	return finished, nil
}

// unregisterRemoved drops the index entry of session id, whose directory
// was removed, and journals "removed", unless the removal did already or
// a session of that id was made since.
func unregisterRemoved(root, id string, now time.Time, warn *report.Reporter) error {
	if _, err := os.Lstat(Dir(root, id)); !errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	ix, err := readIndex(root)
	if err != nil || !slices.ContainsFunc(ix.Sessions, func(e indexEntry) bool { return e.SessionID == id }) {
		return nil // a corrupt index is rebuilt by Prune without it
	}
	return recordLocked(root, indexEntry{SessionID: id}, removed, now, warn)
}
