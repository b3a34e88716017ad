package envfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"mas/internal/safefile"
)

// TestReadSpecialFiles: Read never waits on a FIFO, never reads a device,
// never follows a link, and caps what it reads (issue 14: a FIFO .session
// hung env, status, session list and GET /sessions).
func TestReadSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "outside")
	os.WriteFile(outside, []byte("STATUS=active\n"), 0o600)
	tests := []struct {
		name string
		make func(path string) error
		want error
		msg  string
	}{
		{"fifo", func(p string) error { return syscall.Mkfifo(p, 0o600) }, safefile.ErrNotRegular, "not a regular file (a FIFO)"},
		{"link", func(p string) error { return os.Symlink(outside, p) }, safefile.ErrSymlink, "is a symbolic link"},
		{"zero", func(p string) error { return os.Symlink("/dev/zero", p) }, safefile.ErrSymlink, "is a symbolic link"},
		{"dir", func(p string) error { return os.Mkdir(p, 0o700) }, safefile.ErrNotRegular, "not a regular file (a directory)"},
		{"big", func(p string) error {
			return os.WriteFile(p, []byte("STATUS=a\n"+strings.Repeat("#", MaxFileSize)), 0o600)
		}, safefile.ErrTooLarge, "too large (more than 65536 bytes)"},
	}
	for _, tt := range tests {
		path := filepath.Join(dir, tt.name)
		if err := tt.make(path); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() {
			_, err := Read(path, sessionKeys)
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, tt.want) || err.Error() != path+": "+tt.msg {
				t.Errorf("%s: err = %v, want %q", tt.name, err, path+": "+tt.msg)
			}
		case <-time.After(time.Minute): // a bound for a broken build only
			t.Fatalf("%s: Read hangs", tt.name)
		}
	}
}

// TestWriteRefusesLink: a .session that is a link is never written
// through or replaced (issue 14: a write landed outside the root).
func TestWriteRefusesLink(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "outside")
	os.WriteFile(outside, []byte("keep\n"), 0o600)
	dir := t.TempDir()
	path := filepath.Join(dir, ".session")
	os.Symlink(outside, path)
	err := Write(path, []Var{{"STATUS", "stopped"}}, sessionKeys)
	if !errors.Is(err, safefile.ErrSymlink) {
		t.Errorf("Write through a link: err = %v", err)
	}
	if data, _ := os.ReadFile(outside); string(data) != "keep\n" {
		t.Errorf("the link's target changed: %q", data)
	}
	if target, err := os.Readlink(path); err != nil || target != outside {
		t.Errorf("the link was replaced: %q, %v", target, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files left behind: %v", entries)
	}
}
