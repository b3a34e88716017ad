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

// watchRoot is called before a start: a root that does not exist yet (a
// typo in MAS_ROOT) would become a new root in silence (issue 30), since
// the modes make the directories they need, parents included. The function
// it returns is called once the start is over: when it succeeded, it says
// that the root was made; when it failed, it takes back the directories
// the start made on the way, as far as they are still empty.
func (a *App) watchRoot() (done func(ok bool)) {
	root, why := a.rootAndWhy()
	var missing []string // the root and its missing parents, deepest first
	for dir := root; ; dir = filepath.Dir(dir) {
		if _, err := os.Lstat(dir); !errors.Is(err, fs.ErrNotExist) || dir == filepath.Dir(dir) {
			break
		}
		missing = append(missing, dir)
	}
	return func(ok bool) {
		switch {
		case len(missing) == 0:
		case ok && isDir(root):
			a.Report.Infof("Created %s (%s): it did not exist", root, why)
		case !ok:
			for _, dir := range missing {
				if os.Remove(dir) != nil {
					return
				}
			}
		}
	}
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
