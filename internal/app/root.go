package app

import (
	"os"
	"path/filepath"
)

// Root finds $ROOT, the directory holding unit/, workflows/ and
// sessions/: MAS_ROOT, else MAS_WORKSPACE_ROOT, else the nearest ancestor
// of the working directory holding .masrc or config.json, else the
// executable's directory when it holds unit/ or workflows/ (where the bash
// tool lived), else the working directory.
func (e Env) Root() string {
	for _, k := range []string{"MAS_ROOT", "MAS_WORKSPACE_ROOT"} {
		if v := e.Getenv(k); v != "" {
			return e.Abs(v)
		}
	}
	for dir := e.Cwd; ; dir = filepath.Dir(dir) {
		if exists(filepath.Join(dir, ".masrc")) || exists(filepath.Join(dir, "config.json")) {
			return dir
		}
		if dir == filepath.Dir(dir) {
			break
		}
	}
	if e.ExeDir != "" && (isDir(filepath.Join(e.ExeDir, "unit")) || isDir(filepath.Join(e.ExeDir, "workflows"))) {
		return e.ExeDir
	}
	return e.Cwd
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
