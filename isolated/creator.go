package isolated

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"mas/internal/safefile"
)

// markerName is the file a creator makes in the new session directory
// and holds an exclusive flock on until the session is active; it is
// removed once the session is. The kernel drops the flock when the
// creator dies, even by SIGKILL, so a marker that nobody holds is a
// creation that was interrupted. The creator makes the directory and
// takes the flock while holding the registry lock, and prune decides
// while holding it too: prune never sees a directory whose creator is
// alive but not yet holding its marker.
const markerName = ".creating"

type creatorState int

const (
	noCreator   creatorState = iota // no marker: the session was created, or made by another tool
	creatorLive                     // a process holds the marker
	creatorGone                     // the marker is there, nobody holds it
)

// creatorOf tells whether the creator of the session in dir is still at
// work. A marker that is a link or a special file was not made by a
// creator and counts as none. When it cannot tell (too many open files, a
// filesystem without flock), the creator counts as alive: prune then
// keeps the session, which is the mistake that loses nothing.
func creatorOf(dir string) creatorState {
	f, err := safefile.Open(filepath.Join(dir, markerName), os.O_RDONLY, 0)
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, safefile.ErrSymlink), errors.Is(err, safefile.ErrNotRegular):
		return noCreator
	case err != nil:
		return creatorLive
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB); err != nil {
		return creatorLive // EWOULDBLOCK: held; anything else: cannot tell
	}
	syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return creatorGone
}

// holdMarker makes the marker in dir and takes its flock.
func holdMarker(dir string) (*os.File, error) {
	f, err := safefile.Open(filepath.Join(dir, markerName), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// isEmptyDir reports whether dir holds nothing at all: what a creator
// killed right after making it leaves.
func isEmptyDir(dir string) bool {
	f, err := os.OpenFile(dir, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_DIRECTORY, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	_, err = f.Readdirnames(1)
	return errors.Is(err, io.EOF)
}
