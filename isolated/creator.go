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

// What a marker says: which operation holds it and how far it got. A
// creator writes markerWorkspace when it makes the marker and markerAgents
// just before it starts the agents; a resumer writes markerResume. Prune
// removes an interrupted creation only when its marker says
// markerWorkspace: its agents never ran, so nothing in it is theirs. A
// marker of an older mas says nothing.
const (
	markerWorkspace = "create: workspace\n"
	markerAgents    = "create: agents\n"
	markerResume    = "resume\n"
)

// maxMarker caps what is read of a marker.
const maxMarker = 64

// holdMarker makes the marker in dir, takes its flock and writes says
// into it.
func holdMarker(dir, says string) (*os.File, error) {
	path := filepath.Join(dir, markerName)
	f, err := safefile.Open(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		os.Remove(path)
		return nil, err
	}
	if err := setMarker(f, says); err != nil {
		f.Close()
		os.Remove(path)
		return nil, err
	}
	return f, nil
}

// setMarker makes the held marker f say says. Killed half-way, it says
// neither what it said nor says, which counts as "agents may have run".
func setMarker(f *os.File, says string) error {
	if _, err := f.WriteAt([]byte(says), 0); err != nil {
		return err
	}
	return f.Truncate(int64(len(says)))
}

// markerSays is what the marker in dir says, or "" when it says nothing
// or cannot be read.
func markerSays(dir string) string {
	data, err := safefile.ReadFile(filepath.Join(dir, markerName), maxMarker)
	if err != nil {
		return ""
	}
	return string(data)
}

// leftAtMkdir reports whether dir holds nothing at all, or nothing but a
// marker that nobody holds and that says nothing: what a creator killed
// right after making it leaves.
func leftAtMkdir(dir string) bool {
	f, err := os.OpenFile(dir, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_DIRECTORY, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	names, err := f.Readdirnames(2)
	switch {
	case errors.Is(err, io.EOF):
		return true
	case err != nil || len(names) != 1 || names[0] != markerName:
		return false
	}
	fi, err := os.Lstat(filepath.Join(dir, markerName))
	return err == nil && fi.Mode().IsRegular() && fi.Size() == 0 && creatorOf(dir) == creatorGone
}
