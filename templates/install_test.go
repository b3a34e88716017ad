package templates

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// Every template is copied byte for byte: the embedded ones with mode
// 0644, those of a root's own tree with its modes, made writable by their
// owner.
func TestInstallCopiesEachTemplate(t *testing.T) {
	root := t.TempDir()
	own := filepath.Join(root, "unit", "11")
	if err := os.MkdirAll(own, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(own, "NOTES.md"), []byte("the root's own\n"), 0o444); err != nil {
		t.Fatal(err)
	}
	dst := t.TempDir()
	unit, workflows := filepath.Join(dst, "unit"), filepath.Join(dst, "workflows")
	if err := Install(root, unit, workflows, []string{"10", "11"}); err != nil {
		t.Fatal(err)
	}
	// Files are made as the umask allows.
	umask := fs.FileMode(syscall.Umask(0))
	syscall.Umask(int(umask))
	checked := 0
	for _, tree := range []string{"unit/10", "workflows"} {
		err := fs.WalkDir(files, tree, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			checkCopy(t, filepath.Join(dst, filepath.FromSlash(p)), mustRead(t, files, p), 0o644&^umask)
			checked++
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if checked == 0 {
		t.Fatal("no embedded template was checked")
	}
	checkCopy(t, filepath.Join(unit, "11", "NOTES.md"), []byte("the root's own\n"), 0o644&^umask)
	if ents, err := os.ReadDir(filepath.Join(unit, "11")); err != nil || len(ents) != 1 {
		t.Errorf("unit/11 holds %v (%v), want only the root's NOTES.md", ents, err)
	}
}

func mustRead(t *testing.T, fsys fs.FS, name string) []byte {
	t.Helper()
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func checkCopy(t *testing.T, path string, content []byte, mode fs.FileMode) {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(content) {
		t.Errorf("%s holds %q, want %q", path, got, content)
	}
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode() != mode {
		t.Errorf("%s has mode %v, want %v", path, fi.Mode(), mode)
	}
}
