package safefile

import (
	"errors"
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
	for _, tt := range tests {
		t.Run(tt.why, func(t *testing.T) {
			read := ReadFile
			if tt.follow {
				read = ReadFileFollow
			}
			done := make(chan struct{})
			var got []byte
			var err error
			go func() { got, err = read(tt.path, 8); close(done) }()
			select {
			case <-done:
			case <-time.After(time.Minute): // a bound for a broken build only
				t.Fatal("read blocked")
			}
			if !errors.Is(err, tt.err) || string(got) != tt.want {
				t.Fatalf("got %q, %v; want %q, %v", got, err, tt.want, tt.err)
			}
			if err != nil && !strings.Contains(err.Error(), tt.path) {
				t.Errorf("error %q does not name %s", err, tt.path)
			}
		})
	}
}

func TestWriteAtomicRefusesLinks(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "victim")
	os.WriteFile(outside, []byte("keep"), 0o600)
	p := filepath.Join(dir, "index")
	os.Symlink(outside, p)
	if err := WriteAtomic(p, []byte("new"), 0o600); !errors.Is(err, ErrSymlink) {
		t.Fatalf("WriteAtomic over a link: %v, want ErrSymlink", err)
	}
	if data, _ := os.ReadFile(outside); string(data) != "keep" {
		t.Fatalf("the link's target was written: %q", data)
	}
	if fi, err := os.Lstat(p); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the link was replaced")
	}
	q := filepath.Join(dir, "new")
	if err := WriteAtomic(q, []byte("x"), 0o640); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(q); fi.Mode().Perm() != 0o640 {
		t.Fatalf("mode %v", fi.Mode())
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
