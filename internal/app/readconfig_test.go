package app

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReadConfigSpecialFiles: --config FILE follows a link the user made,
// but what it reads must be a regular file of at most 1 MiB; a FIFO or a
// device is refused at once (issue 14).
func TestReadConfigSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	os.WriteFile(good, []byte(`{"agents":{}}`), 0o644)
	tests := []struct {
		name string
		make func(path string) error
		err  string // "" for success; PATH stands for the file
		why  string
	}{
		{"fifo", func(p string) error { return syscall.Mkfifo(p, 0o644) }, "read config: PATH: not a regular file (a FIFO)", "a FIFO blocked the open"},
		{"zero", func(p string) error { return os.Symlink("/dev/zero", p) }, "read config: PATH: not a regular file (a character device)", "a link is followed, to a regular file only"},
		{"big", func(p string) error {
			return os.WriteFile(p, []byte(`{"x":"`+strings.Repeat("a", 1<<20)+`"}`), 0o644)
		}, "read config: PATH: too large (more than 1048576 bytes)", "the API's body cap"},
		{"link", func(p string) error { return os.Symlink(good, p) }, "", "the user named it: a link to a regular file is fine"},
	}
	for _, tt := range tests {
		path := filepath.Join(dir, tt.name)
		if err := tt.make(path); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() {
			_, _, err := ReadConfig(path)
			done <- err
		}()
		select {
		case err := <-done:
			want := strings.ReplaceAll(tt.err, "PATH", path)
			if tt.err == "" && err != nil || tt.err != "" && (err == nil || err.Error() != want) {
				t.Errorf("%s: err = %v, want %q (%s)", tt.name, err, want, tt.why)
			}
		case <-time.After(time.Minute): // a bound for a broken build only
			t.Fatalf("%s: readConfig hangs (%s)", tt.name, tt.why)
		}
	}
}
