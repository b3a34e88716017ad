package safefile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	link := func(name, target string) string {
		p := filepath.Join(dir, name)
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	plain := write("plain", "A=1\n")
	tests := []struct {
		why    string
		path   string
		follow bool
		want   string
		err    error
	}{
		{"a regular file is read", plain, false, "A=1\n", nil},
		{"exactly the cap is fine", write("cap", "12345678"), false, "12345678", nil},
		{"over the cap is refused, not truncated", write("big", "123456789"), false, "", ErrTooLarge},
		{"a FIFO would block open and read for ever", fifo, false, "", ErrNotRegular},
		{"a FIFO behind a followed link too", link("tofifo", fifo), true, "", ErrNotRegular},
		{"/dev/zero would grow until memory runs out", link("zero", "/dev/zero"), true, "", ErrNotRegular},
		{"a link is never followed where files are found, not named", link("toplain", plain), false, "", ErrSymlink},
		{"a link the user named is followed to a regular file", link("named", plain), true, "A=1\n", nil},
		{"a directory is not a file", dir, false, "", ErrNotRegular},
	}
	// ReadString reads what ReadFile reads, into a string.
	readString := func(path string, max int64) ([]byte, error) {
		s, err := ReadString(path, max)
		return []byte(s), err
	}
	for _, tt := range tests {
		t.Run(tt.why, func(t *testing.T) {
			read := ReadFile
			if tt.follow {
				read = ReadFileFollow
			}
			testRead(t, read, tt.path, tt.want, tt.err)
			if !tt.follow {
				testRead(t, readString, tt.path, tt.want, tt.err)
			}
		})
	}
}

// testRead reads path with read, at most 8 bytes, and wants want or err.
func testRead(t *testing.T, read func(string, int64) ([]byte, error), path, want string, wantErr error) {
	t.Helper()
	done := make(chan struct{})
	var got []byte
	var err error
	go func() { got, err = read(path, 8); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Minute): // a bound for a broken build only
		t.Fatal("read blocked")
	}
	if !errors.Is(err, wantErr) || string(got) != want {
		t.Fatalf("got %q, %v; want %q, %v", got, err, want, wantErr)
	}
	if err != nil && !strings.Contains(err.Error(), path) {
		t.Errorf("error %q does not name %s", err, path)
	}
}

// TestReplacingRefusesLinks: WriteAtomic and Replace put a new file at a
// path; a link there is neither followed nor replaced, a FIFO is not
// replaced, and no temporary file is left behind.
func TestReplacingRefusesLinks(t *testing.T) {
	writers := map[string]func(path string, perm os.FileMode) error{
		"WriteAtomic": func(p string, perm os.FileMode) error { return WriteAtomic(p, []byte("new"), perm) },
		"Replace": func(p string, perm os.FileMode) error {
			f, err := Replace(p, perm)
			if err != nil {
				return err
			}
			defer f.Close()
			_, err = f.WriteString("new")
			return err
		},
	}
	for name, write := range writers {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			outside := filepath.Join(t.TempDir(), "victim")
			os.WriteFile(outside, []byte("keep"), 0o600)
			p := filepath.Join(dir, "index")
			os.Symlink(outside, p)
			if err := write(p, 0o600); !errors.Is(err, ErrSymlink) {
				t.Fatalf("over a link: %v, want ErrSymlink", err)
			}
			if data, _ := os.ReadFile(outside); string(data) != "keep" {
				t.Fatalf("the link's target was written: %q", data)
			}
			if fi, err := os.Lstat(p); err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Fatal("the link was replaced")
			}
			fifo := filepath.Join(dir, "fifo")
			syscall.Mkfifo(fifo, 0o600)
			if err := write(fifo, 0o600); !errors.Is(err, ErrNotRegular) {
				t.Fatalf("over a FIFO: %v, want ErrNotRegular", err)
			}
			q := filepath.Join(dir, "new")
			if err := write(q, 0o640); err != nil {
				t.Fatal(err)
			}
			if fi, _ := os.Stat(q); fi.Mode().Perm() != 0o640 {
				t.Fatalf("mode %v", fi.Mode())
			}
			if data, _ := os.ReadFile(q); string(data) != "new" {
				t.Fatalf("new file reads %q", data)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 3 {
				t.Errorf("left beside them: %v", entries)
			}
		})
	}
}

func TestOpenAppendRefusesLinks(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "victim")
	p := filepath.Join(dir, ".index")
	os.Symlink(outside, p)
	f, err := Open(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if !errors.Is(err, ErrSymlink) {
		f.Close()
		t.Fatalf("Open: %v, want ErrSymlink", err)
	}
	if _, err := os.Stat(outside); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("a file was created through the link")
	}
}

func TestOpenFIFOForWritingSaysFIFO(t *testing.T) {
	// A FIFO with no reader, opened to write without blocking, fails
	// with ENXIO ("no such device or address"): the error must say what
	// is there instead.
	p := filepath.Join(t.TempDir(), ".index")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Open(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "a FIFO") {
		t.Fatalf("Open: %v, want ErrNotRegular naming a FIFO", err)
	}
}

func TestInPlaceRefusesAnotherName(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "bashrc")
	os.WriteFile(outside, []byte("keep\n"), 0o600)
	linked := filepath.Join(dir, "linked")
	if err := os.Link(outside, linked); err != nil {
		t.Fatal(err)
	}
	single := filepath.Join(dir, "single")
	os.WriteFile(single, []byte("x\n"), 0o600)
	tests := []struct {
		why  string
		path string
		err  error
	}{
		{"a file with one name is written in place", single, nil},
		{"a missing file is made", filepath.Join(dir, "new"), nil},
		{"issue 24 point 5: a hard link makes an append land in a file outside the root", linked, ErrHardLink},
		{"a symbolic link is refused as by Open", filepath.Join(dir, "sym"), ErrSymlink},
	}
	os.Symlink(single, filepath.Join(dir, "sym"))
	for _, tt := range tests {
		t.Run(tt.why, func(t *testing.T) {
			if err := CheckInPlace(tt.path); !errors.Is(err, tt.err) {
				t.Errorf("CheckInPlace: %v, want %v", err, tt.err)
			}
			f, err := OpenInPlace(tt.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
			if !errors.Is(err, tt.err) {
				t.Fatalf("OpenInPlace: %v, want %v", err, tt.err)
			}
			if err != nil {
				if !strings.Contains(err.Error(), tt.path) {
					t.Errorf("error %q does not name %s", err, tt.path)
				}
				return
			}
			f.Close()
		})
	}
	// O_TRUNC would empty the file before its names are counted.
	if f, err := OpenInPlace(linked, os.O_WRONLY|os.O_TRUNC, 0o600); err == nil {
		f.Close()
		t.Error("OpenInPlace with O_TRUNC opened a hard link")
	}
	if data, _ := os.ReadFile(outside); string(data) != "keep\n" {
		t.Fatalf("the file outside was written: %q", data)
	}
}

func TestReplaceNeverWritesIntoAnOpenFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "log")
	os.WriteFile(p, []byte("old\n"), 0o644)
	os.Chmod(p, 0o644)
	before, _ := os.Stat(p)
	// Opened while its mode let anyone (issue 24 point 4).
	held, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	f, err := Replace(p, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("secret\n")
	f.Close()
	if data, _ := io.ReadAll(held); string(data) != "old\n" {
		t.Errorf("the descriptor opened before reads %q", data)
	}
	after, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if os.SameFile(before, after) || after.Mode().Perm() != 0o600 {
		t.Errorf("path is the old file or mode %v, want a new file, 0600", after.Mode().Perm())
	}
	if data, _ := os.ReadFile(p); string(data) != "secret\n" {
		t.Errorf("path reads %q", data)
	}
	if entries, _ := os.ReadDir(filepath.Dir(p)); len(entries) != 1 {
		t.Errorf("left beside it: %v", entries)
	}
}

func TestChmodDirNeverFollowsALink(t *testing.T) {
	target := t.TempDir()
	os.Chmod(target, 0o700)
	link := filepath.Join(t.TempDir(), "sessions")
	os.Symlink(target, link)
	if err := ChmodDir(link, 0o755); !errors.Is(err, ErrSymlink) {
		t.Errorf("ChmodDir through a link: %v, want ErrSymlink", err)
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o700 {
		t.Errorf("the link's target became %v", fi.Mode().Perm())
	}
	if err := ChmodDir(target, 0o750); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o750 {
		t.Errorf("mode %v, want 0750", fi.Mode().Perm())
	}
}

// TestSymlinkReplaces: a link made again points at the new target, with
// nothing left beside it; one made where none was is made.
func TestSymlinkReplaces(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "mas")
	for _, target := range []string{"/old/mas", "/new/mas"} {
		if err := Symlink(target, link); err != nil {
			t.Fatal(err)
		}
		if got, err := os.Readlink(link); got != target || err != nil {
			t.Errorf("link points at %q (%v), want %q", got, err, target)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("left beside it: %v", entries)
	}
}
