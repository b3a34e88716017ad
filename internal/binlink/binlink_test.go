package binlink

import (
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
)

// TestInstall: both names lead to the binary that started the session, a
// later start by another binary takes them over, and a binary replaced at
// its path (an upgrade) is what they run from then on (issue 26 point 3).
func TestInstall(t *testing.T) {
	tmp := t.TempDir()
	old, upgraded := filepath.Join(tmp, "old mas"), filepath.Join(tmp, "new mas")
	for _, f := range []string{old, upgraded} {
		if err := os.WriteFile(f, []byte(filepath.Base(f)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(tmp, "a root with spaces", ".mas_bin")
	os.Mkdir(filepath.Dir(dir), 0o755)
	runs := func(want string) {
		t.Helper()
		for _, name := range Names {
			got, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil || string(got) != want {
				t.Errorf("%s runs %q, %v; want %q", name, got, err, want)
			}
		}
	}
	made, err := Install(dir, old)
	if err != nil || !made {
		t.Fatalf("Install = %v, %v; want it made", made, err)
	}
	if fi, err := os.Lstat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("dir: %v, %v; want mode 0700", fi.Mode(), err)
	}
	runs("old mas")
	// The same binary again: nothing is written (issue 28).
	inodes := func() (ino []uint64) {
		for _, name := range Names {
			fi, err := os.Lstat(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			ino = append(ino, fi.Sys().(*syscall.Stat_t).Ino)
		}
		return ino
	}
	before := inodes()
	if made, err := Install(dir, old); err != nil || made || !slices.Equal(inodes(), before) {
		t.Errorf("Install by the same binary: %v, %v, links %v then %v; want them left as they were", made, err, before, inodes())
	}
	if !Current(dir, old) || Current(dir, upgraded) || Current(filepath.Join(tmp, "none"), old) {
		t.Errorf("Current(old) = %v, Current(new) = %v; want true, false", Current(dir, old), Current(dir, upgraded))
	}
	if made, err := Install(dir, upgraded); err != nil || made {
		t.Fatalf("second Install = %v, %v; want it kept", made, err)
	}
	runs("new mas")
	if err := os.Rename(old, upgraded); err != nil { // the upgrade
		t.Fatal(err)
	}
	runs("old mas")
	entries, _ := os.ReadDir(dir)
	if len(entries) != len(Names) {
		t.Errorf("dir holds %d entries, want only the links", len(entries))
	}
}

func TestInstallRefuses(t *testing.T) {
	tmp := t.TempDir()
	exe := filepath.Join(tmp, "mas")
	os.WriteFile(exe, nil, 0o755)
	elsewhere := filepath.Join(tmp, "elsewhere")
	os.Mkdir(elsewhere, 0o700)
	link := filepath.Join(tmp, "link")
	os.Symlink(elsewhere, link)
	file := filepath.Join(tmp, "file")
	os.WriteFile(file, nil, 0o600)
	tests := []struct {
		dir, exe string
		why      string
	}{
		{link, exe, "a directory that is a link: nothing is made through it"},
		{file, exe, "not a directory"},
		{filepath.Join(tmp, "a:b"), exe, "a colon splits a PATH entry"},
		{filepath.Join(tmp, "rel"), "mas", "a relative binary path means another binary in each pane"},
	}
	for _, tt := range tests {
		if _, err := Install(tt.dir, tt.exe); err == nil {
			t.Errorf("Install(%q, %q) succeeded (%s)", tt.dir, tt.exe, tt.why)
		}
	}
	if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
		t.Errorf("links made through a link: %v", entries)
	}
	if _, err := os.Lstat(filepath.Join(tmp, "rel")); err == nil {
		t.Error("a refused Install left its directory")
	}
}

func TestPath(t *testing.T) {
	tests := []struct{ dir, path, want string }{
		{"/r/.mas_bin", "/usr/bin:/bin", "/r/.mas_bin:/usr/bin:/bin"},
		{"/my root/.mas_bin", "/bin", "/my root/.mas_bin:/bin"},
		{"/r/.mas_bin", "", "/r/.mas_bin"}, // "dir:" would add the working directory
	}
	for _, tt := range tests {
		if got := Path(tt.dir, tt.path); got != tt.want {
			t.Errorf("Path(%q, %q) = %q, want %q", tt.dir, tt.path, got, tt.want)
		}
	}
}
