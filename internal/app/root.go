package app

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// Root finds $ROOT, the directory holding unit/, workflows/ and
// sessions/: MAS_ROOT, else MAS_WORKSPACE_ROOT, else the nearest ancestor
// of the working directory holding .masrc or config.json, else the
// executable's directory when it holds unit/ or workflows/ (where the bash
// tool lived), else the working directory.
func (e Env) Root() string {
	root, _ := e.rootAndWhy()
	return root
}

// RootWhy says where the root came from, and how to choose another, for
// messages that name the root: kubectl names its context, we our root.
func (e Env) RootWhy() string {
	_, why := e.rootAndWhy()
	return why
}

func (e Env) rootAndWhy() (root, why string) {
	for _, k := range []string{"MAS_ROOT", "MAS_WORKSPACE_ROOT"} {
		if v := e.Getenv(k); v != "" {
			return e.Abs(v), "the root, from " + k
		}
	}
	const other = "; MAS_ROOT chooses another"
	for dir := e.Cwd; ; dir = filepath.Dir(dir) {
		for _, marker := range []string{".masrc", "config.json"} {
			if exists(filepath.Join(dir, marker)) {
				return dir, "the root: the directory of " + filepath.Join(dir, marker) + other
			}
		}
		if dir == filepath.Dir(dir) {
			break
		}
	}
	if e.ExeDir != "" && (isDir(filepath.Join(e.ExeDir, "unit")) || isDir(filepath.Join(e.ExeDir, "workflows"))) {
		return e.ExeDir, "the root: the mas binary's directory" + other
	}
	return e.Cwd, "the root: the working directory" + other
}

// makeRoot creates the root of a start when it does not exist, and says
// so: a MAS_ROOT with a typo would otherwise become a new root in silence
// (issue 30). The function it returns removes what it made, as far as it
// is still empty, for a start that fails; it does nothing when the root
// was there.
func (a *App) makeRoot() (removeMade func(), err error) {
	root, why := a.rootAndWhy()
	var missing []string // the root and its missing parents, deepest first
	for dir := root; ; dir = filepath.Dir(dir) {
		if _, err := os.Lstat(dir); !errors.Is(err, fs.ErrNotExist) || dir == filepath.Dir(dir) {
			break
		}
		missing = append(missing, dir)
	}
	removeMade = func() {
		for _, dir := range missing {
			if os.Remove(dir) != nil {
				return
			}
		}
	}
	if len(missing) == 0 {
		return removeMade, nil
	}
	a.Report.Infof("Creating %s (%s): it does not exist", root, why)
	if err := os.MkdirAll(root, 0o755); err != nil {
		removeMade()
		return nil, err
	}
	return removeMade, nil
}

// Abs is p made absolute against the working directory.
func (e Env) Abs(p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(e.Cwd, p)
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
