package tmux

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCheckVersionCached: a tmux binary that passed the check once is not
// asked again while it is the same file; a changed binary, a too old one,
// a cache that is a link or names another binary are asked each time.
func TestCheckVersionCached(t *testing.T) {
	dir := t.TempDir()
	bin, calls, cache := filepath.Join(dir, "tmux"), filepath.Join(dir, "calls"), filepath.Join(dir, "cache")
	fake := func(version string) {
		script := "#!/bin/sh\necho x >>" + calls + "\necho 'tmux " + version + "'\n"
		if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	asked := func() int {
		data, _ := os.ReadFile(calls)
		return strings.Count(string(data), "x")
	}
	r := &Runner{Bin: bin}
	ctx := context.Background()
	check := func(why string, want int, wantErr error) {
		t.Helper()
		before := asked()
		v, remember, err := CheckVersionCached(ctx, r, cache)
		remember()
		if !errors.Is(err, wantErr) || asked()-before != want {
			t.Errorf("%s: %v, %v, tmux -V run %d times; want %v, %d", why, v, err, asked()-before, wantErr, want)
		}
	}
	fake("3.3a")
	if _, _, err := CheckVersionCached(ctx, r, cache); err != nil || asked() != 1 {
		t.Fatalf("%v, asked %d times", err, asked())
	}
	if _, err := os.Lstat(cache); err == nil {
		t.Error("a version was remembered before remember was called")
	}
	check("asked until remembered", 1, nil)
	check("the same binary is not asked again", 0, nil)
	fake("3.1c")
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(bin, later, later); err != nil {
		t.Fatal(err)
	}
	check("a binary replaced by an older one is asked, and refused", 1, ErrTooOld)
	check("a too old tmux is never remembered", 1, ErrTooOld)
	fake("3.4")
	check("a new binary is asked", 1, nil)
	check("then remembered", 0, nil)
	other := &Runner{Bin: bin, Socket: "private"}
	if _, _, err := CheckVersionCached(ctx, other, cache); err != nil || asked() != 5 {
		t.Errorf("the same binary on another server: %v, asked %d times; want it remembered (5)", err, asked())
	}
	if err := os.Remove(cache); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "elsewhere"), []byte("whatever"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "elsewhere"), cache); err != nil {
		t.Fatal(err)
	}
	check("a cache that is a link is not read", 1, nil)
	if data, _ := os.ReadFile(filepath.Join(dir, "elsewhere")); string(data) != "whatever" {
		t.Errorf("the link's target was written: %q", data)
	}
	check("nor written through", 1, nil)
	before := asked()
	for range 2 {
		if _, _, err := CheckVersionCached(ctx, r, ""); err != nil {
			t.Fatal(err)
		}
	}
	if asked()-before != 2 {
		t.Errorf("no cache: tmux -V run %d times for 2 checks", asked()-before)
	}
}
