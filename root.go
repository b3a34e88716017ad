package main

import (
	"os"
	"path/filepath"
)

// resolveRoot finds $ROOT, the directory holding unit/, workflows/ and
// sessions/: MAS_ROOT, else MAS_WORKSPACE_ROOT, else the nearest ancestor
// of the working directory holding .masrc or config.json, else the
// executable's directory when it holds unit/ or workflows/ (where the bash
// tool lived), else the working directory.
func (e env) resolveRoot() string {
	for _, k := range []string{"MAS_ROOT", "MAS_WORKSPACE_ROOT"} {
		if v := e.getenv(k); v != "" {
			return absPath(e.cwd, v)
		}
	}
	for dir := e.cwd; ; dir = filepath.Dir(dir) {
		if exists(filepath.Join(dir, ".masrc")) || exists(filepath.Join(dir, "config.json")) {
			return dir
		}
		if dir == filepath.Dir(dir) {
			break
		}
	}
	if e.exeDir != "" && (isDir(filepath.Join(e.exeDir, "unit")) || isDir(filepath.Join(e.exeDir, "workflows"))) {
		return e.exeDir
	}
	return e.cwd
}

func absPath(cwd, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(cwd, p)
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// executableDir is the directory of the running binary, links resolved, so
// that a "mas" symlink finds the same root as mas_refactored.sh.
func executableDir() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	return filepath.Dir(exe)
}
