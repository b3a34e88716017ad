// Package binlink gives the panes of a session the mas that started it: a
// directory of its own holding two links to the running binary, mas and
// mas_refactored.sh, to be put first on the panes' PATH.
package binlink

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"mas/internal/safefile"
	"mas/internal/undo"
)

// Names are the links of the directory: the names the binary is installed
// and called by.
var Names = []string{"mas", "mas_refactored.sh"}

// Install points the links of dir at exe, an absolute path, making dir
// (mode 0700) when it is missing, and reports whether it made it. Links
// an earlier start left for another binary are replaced, each at once: a
// pane that runs mas meanwhile finds the old binary or the new one; links
// that point at exe already are left as they are. A link points at exe's
// path, not at the file it is now: a binary replaced there (an upgrade)
// is the one the panes run from then on. A dir that is a link, or not a
// directory, is refused, and so is one whose path cannot be an entry of
// PATH (it holds a colon).
func Install(dir, exe string) (made bool, err error) {
	if !filepath.IsAbs(exe) {
		return false, fmt.Errorf("mas binary path %q is not absolute", exe)
	}
	if strings.Contains(dir, ":") {
		return false, fmt.Errorf("%s cannot be on PATH: it holds a colon", dir)
	}
	if err := safefile.CheckDir(dir); err != nil {
		return false, err
	}
	switch err := os.Mkdir(dir, 0o700); {
	case err == nil:
		made = true
	case !errors.Is(err, fs.ErrExist):
		return false, err
	}
	for _, name := range Names {
		link := filepath.Join(dir, name)
		if points(link, exe) {
			continue // as this start would make it: nothing is written
		}
		if err = safefile.Symlink(exe, link); err != nil {
			break
		}
	}
	if err != nil && made {
		err = undo.With(err, os.RemoveAll(dir))
	}
	return made, err
}

// Current tells whether dir holds the links as Install would make them
// for exe: a directory (no link) whose every link points at exe. Install
// then writes nothing.
func Current(dir, exe string) bool {
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
		return false
	}
	for _, name := range Names {
		if !points(filepath.Join(dir, name), exe) {
			return false
		}
	}
	return true
}

// points tells whether link is a symbolic link to target.
func points(link, target string) bool {
	got, err := os.Readlink(link)
	return err == nil && got == target
}

// Path is the PATH whose first entry is dir, followed by path's (an
// empty path has none: an empty entry would be the working directory).
func Path(dir, path string) string {
	if path == "" {
		return dir
	}
	return dir + string(os.PathListSeparator) + path
}
