// Package safefile opens files that a user can edit or replace by hand:
// it follows no symbolic link in the last element of a path (but for the
// …Follow functions, for a path the user named), never blocks on a FIFO or
// a device, accepts only regular files, writes in place only to a file
// with no other name (a hard link), and reads at most a given number of
// bytes. It also holds mas's only way to replace a file whole (a temporary
// name, then a rename): WriteAtomic, Replace and Symlink.
package safefile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// Errors callers can branch on; each comes wrapped with the path.
var (
	ErrSymlink    = errors.New("is a symbolic link")
	ErrNotRegular = errors.New("not a regular file")
	ErrTooLarge   = errors.New("too large")
	ErrHardLink   = errors.New("has more than one hard link")
)

// Error is a file that safefile refuses.
type Error struct {
	Path string
	Err  error // ErrSymlink, ErrNotRegular, ErrTooLarge or ErrHardLink
	Info string
}

func (e *Error) Error() string {
	if e.Info != "" {
		return fmt.Sprintf("%s: %v (%s)", e.Path, e.Err, e.Info)
	}
	return fmt.Sprintf("%s: %v", e.Path, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// openFlags are added to every open: a FIFO or a device opens at once
// instead of waiting for a writer (os.OpenFile adds O_CLOEXEC itself).
const openFlags = syscall.O_NONBLOCK

// Open opens path with flag (os.O_RDONLY, os.O_WRONLY|os.O_APPEND|
// os.O_CREATE, …) without following a symbolic link at its end, and
// checks that what it opened is a regular file.
func Open(path string, flag int, perm os.FileMode) (*os.File, error) {
	return open(path, flag|syscall.O_NOFOLLOW, perm)
}

// OpenFollow is Open for a path the user named on purpose (--config
// FILE): a link is followed, but what it leads to must be a regular file.
func OpenFollow(path string, flag int, perm os.FileMode) (*os.File, error) {
	return open(path, flag, perm)
}

// OpenInPlace is Open for a file that mas writes in place (appends to,
// truncates, rewrites): the file opened must also have a single name. A
// hard link is a second name for the same file, which may be anywhere
// (~/.bashrc linked as a log): writing through it would write there. The
// link count is read from the descriptor, so the file checked is the file
// written.
func OpenInPlace(path string, flag int, perm os.FileMode) (*os.File, error) {
	if flag&os.O_TRUNC != 0 {
		// O_TRUNC would empty another name's file before the check.
		return nil, fmt.Errorf("%s: truncate through the descriptor, after the check, not with O_TRUNC", path)
	}
	f, err := Open(path, flag, perm)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil {
		err = checkLinks(path, fi)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// checkLinks refuses a file with more than one name.
func checkLinks(path string, fi fs.FileInfo) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fmt.Errorf("%s: cannot count its hard links", path)
	}
	if st.Nlink > 1 {
		return &Error{Path: path, Err: ErrHardLink, Info: fmt.Sprintf("%d names", st.Nlink)}
	}
	return nil
}

func open(path string, flag int, perm os.FileMode) (*os.File, error) {
	f, err := os.OpenFile(path, flag|openFlags, perm)
	if err != nil {
		// Say what is there rather than how opening it failed: a FIFO
		// opened to write with no reader fails with "no such device".
		if fi, lerr := os.Lstat(path); lerr == nil {
			switch {
			case fi.Mode()&fs.ModeSymlink != 0 && flag&syscall.O_NOFOLLOW != 0:
				return nil, &Error{Path: path, Err: ErrSymlink}
			case fi.Mode()&fs.ModeSymlink == 0 && !fi.Mode().IsRegular():
				return nil, &Error{Path: path, Err: ErrNotRegular, Info: describe(fi.Mode())}
			}
		}
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, &Error{Path: path, Err: ErrNotRegular, Info: describe(fi.Mode())}
	}
	return f, nil
}

func describe(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m.IsRegular():
		return "a regular file"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return m.Type().String()
}

// ReadFile reads a regular file of at most max bytes, refusing a link at
// the end of path.
func ReadFile(path string, max int64) ([]byte, error) {
	f, err := Open(path, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f, path, max)
}

// ReadString is ReadFile into a string, for a caller that parses a
// large file as one: read into the string's own memory, not copied from
// a buffer the size of the file.
func ReadString(path string, max int64) (string, error) {
	f, err := Open(path, os.O_RDONLY, 0)
	if err != nil {
		return "", err
	}
	defer f.Close()
	var b strings.Builder
	b.Grow(int(sizeHint(f, max)) + 1)
	if _, err := io.Copy(&b, io.LimitReader(f, max+1)); err != nil {
		return "", err
	}
	if int64(b.Len()) > max {
		return "", tooLarge(path, max)
	}
	return b.String(), nil
}

// ReadFileFollow is ReadFile for a path the user named on purpose.
func ReadFileFollow(path string, max int64) ([]byte, error) {
	f, err := OpenFollow(path, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f, path, max)
}

// readAll reads at most max bytes; a file that holds more, even one that
// grows while it is read, is refused.
func readAll(f *os.File, path string, max int64) ([]byte, error) {
	buf := bytes.NewBuffer(make([]byte, 0, sizeHint(f, max)+bytes.MinRead))
	if _, err := buf.ReadFrom(io.LimitReader(f, max+1)); err != nil {
		return nil, err
	}
	data := buf.Bytes()
	if int64(len(data)) > max {
		return nil, tooLarge(path, max)
	}
	return data, nil
}

// sizeHint is the size of the buffer to read f into, at most max: its
// size, so that a large file is read in one buffer rather than copied
// through doubling ones.
func sizeHint(f *os.File, max int64) int64 {
	if fi, err := f.Stat(); err == nil {
		return min(fi.Size(), max)
	}
	return 0
}

// tooLarge is the error of a file at path that holds more than max bytes.
func tooLarge(path string, max int64) error {
	return &Error{Path: path, Err: ErrTooLarge, Info: fmt.Sprintf("more than %d bytes", max)}
}

// ErrNotDir is a directory mas works in that is something else.
var ErrNotDir = errors.New("not a directory")

// CheckReplaceable refuses to replace path by a rename when it is a
// symbolic link or something other than a regular file: a rename would
// silently turn a link somebody made into a file, and hide the mistake.
// A path that does not exist is fine.
func CheckReplaceable(path string) error {
	_, err := check(path, fs.FileMode.IsRegular, ErrNotRegular)
	return err
}

// CheckInPlace refuses a path that mas, or a program it starts, is to
// write in place when it is a symbolic link, something other than a
// regular file, or a file with more than one name (see OpenInPlace). A
// path that does not exist is fine.
func CheckInPlace(path string) error {
	fi, err := check(path, fs.FileMode.IsRegular, ErrNotRegular)
	if err != nil || fi == nil {
		return err
	}
	return checkLinks(path, fi)
}

// CheckDir refuses a directory path that is a symbolic link or not a
// directory, so that nothing is made or written through it; a path that
// does not exist is fine.
func CheckDir(path string) error {
	_, err := check(path, fs.FileMode.IsDir, ErrNotDir)
	return err
}

// ChmodDir sets the mode of the directory at path through a descriptor
// opened without following a link: a directory replaced by a link since
// it was made gives its mode to nothing else.
func ChmodDir(path string, perm os.FileMode) error {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_DIRECTORY|openFlags, 0)
	if err != nil {
		if cerr := CheckDir(path); cerr != nil {
			return cerr
		}
		return err
	}
	defer f.Close()
	return f.Chmod(perm)
}

// check refuses a path that is a symbolic link or whose mode is not ok,
// and returns what is there: nil when nothing is.
func check(path string, ok func(fs.FileMode) bool, notOK error) (fs.FileInfo, error) {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, err
	case fi.Mode()&fs.ModeSymlink != 0:
		return nil, &Error{Path: path, Err: ErrSymlink}
	case !ok(fi.Mode()):
		return nil, &Error{Path: path, Err: notOK, Info: describe(fi.Mode())}
	}
	return fi, nil
}

// WriteAtomic replaces path with data, mode perm, through a temporary file
// in the same directory and a rename: a reader sees the old file or the
// new one, never a mix. A link or special file at path is refused, never
// followed or replaced. It is the one atomic write of mas: every file that
// another process may read while it changes goes through it.
//
// The rename makes it safe against a process killed at any point; it does
// not fsync: the files it writes describe tmux sessions, which do not
// outlive the machine, and a registry torn by a power cut is rebuilt from
// the session directories. An fsync costs milliseconds on a real disk,
// several of them per start.
func WriteAtomic(path string, data []byte, perm os.FileMode) error {
	return WritePiecesAtomic(path, perm, data)
}

// WritePiecesAtomic is WriteAtomic of the pieces one after the other,
// written as they are rather than copied into one buffer first.
func WritePiecesAtomic(path string, perm os.FileMode, pieces ...[]byte) error {
	if err := CheckReplaceable(path); err != nil {
		return fmt.Errorf("write %w", err)
	}
	f, err := createTemp(path, perm)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	for _, piece := range pieces {
		if _, err = f.Write(piece); err != nil {
			break
		}
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// Replace puts a new, empty file of mode perm at path and returns it open
// for writing. The file is made under a temporary name in the same
// directory, exclusively and with mode perm from its first instant, then
// renamed over path: a process that had opened the old file, when its
// mode let it, reads nothing written to the new one. So a secret is
// written only through Replace, never into a file that exists. A link or
// special file at path is refused, never followed or replaced; a process
// killed before the rename leaves a temporary file, never path half-made.
func Replace(path string, perm os.FileMode) (*os.File, error) {
	if err := CheckReplaceable(path); err != nil {
		return nil, fmt.Errorf("replace %w", err)
	}
	f, err := createTemp(path, perm)
	if err != nil {
		return nil, fmt.Errorf("replace %s: %w", path, err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, fmt.Errorf("replace %s: %w", path, err)
	}
	return f, nil
}

// Symlink makes path a symbolic link to target, replacing what is at path
// at once: the new link is made under a temporary name in the same
// directory, then renamed over path, so that a process that looks finds
// the old link or the new one, never none.
func Symlink(target, path string) error {
	tmp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+"."+strconv.Itoa(os.Getpid()))
	os.Remove(tmp)
	if err := os.Symlink(target, tmp); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// createTemp makes a new file of mode perm, named after path, in its
// directory: os.CreateTemp makes it exclusively (O_EXCL), mode 0600 or
// less, and perm is set on the descriptor before anything is written.
func createTemp(path string, perm os.FileMode) (*os.File, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return nil, err
	}
	if err := f.Chmod(perm); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, err
	}
	return f, nil
}
