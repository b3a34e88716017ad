package legacy

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestFindProjectSpecialFiles: a .masrc that is not a plain file is
// refused at once with its path, never waited on or read without end
// (issue 14: a FIFO hung start, a link to /dev/zero grew until the runtime
// died).
func TestFindProjectSpecialFiles(t *testing.T) {
	tests := []struct {
		make func(path string) error
		err  string
		why  string
	}{
		{func(p string) error { return syscall.Mkfifo(p, 0o644) }, ".masrc: not a regular file (a FIFO)", "a FIFO blocked the open"},
		{func(p string) error { return os.Symlink("/dev/zero", p) }, ".masrc: is a symbolic link", "/dev/zero was read without end"},
		{func(p string) error { return os.Mkdir(p, 0o755) }, ".masrc: not a regular file (a directory)", ""},
		{func(p string) error {
			return os.WriteFile(p, []byte("# "+strings.Repeat("x", MaxMasrcSize)+"\nPROJECT_NAME=x\n"), 0o644)
		}, ".masrc: too large (more than 65536 bytes)", "the cap is named"},
	}
	for _, tt := range tests {
		dir := t.TempDir()
		path := filepath.Join(dir, ".masrc")
		if err := tt.make(path); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() {
			_, _, err := FindProject(dir)
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || err.Error() != path+strings.TrimPrefix(tt.err, ".masrc") {
				t.Errorf("%s: err = %v, want %q (%s)", tt.err, err, path+strings.TrimPrefix(tt.err, ".masrc"), tt.why)
			}
		case <-time.After(time.Minute): // a bound for a broken build only
			t.Fatalf("FindProject hangs on %s (%s)", tt.err, tt.why)
		}
	}
}
