// Package legacy runs the original tool's default mode: one session per
// project, named mas-tmux or mas-<project name>, whose agents share the
// project's unit/ and workflows/ directories.
package legacy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"mas/envfile"
	"mas/internal/roster"
	"mas/internal/safefile"
	"mas/templates"
)

// projectKeys are the keys a shell-form .masrc may set.
var projectKeys = []string{"PROJECT_NAME", "WORKSPACE_ROOT"}

// Project is a directory holding a .masrc.
type Project struct {
	Dir  string
	Name string // PROJECT_NAME, may be empty
}

// FindProject looks for .masrc in dir and its parents and reads the
// nearest. found is false when there is none.
func FindProject(dir string) (p Project, found bool, err error) {
	for d := dir; ; d = filepath.Dir(d) {
		path := filepath.Join(d, ".masrc")
		if _, err := os.Lstat(path); err == nil {
			name, err := readMasrc(path)
			return Project{Dir: d, Name: name}, true, err
		}
		if d == filepath.Dir(d) {
			return Project{}, false, nil
		}
	}
}

// MaxMasrcSize caps a .masrc: it holds a name and a path.
const MaxMasrcSize = 64 << 10

// readMasrc reads PROJECT_NAME from a .masrc without executing it. Both
// forms are read: the shell form PROJECT_NAME="…" that people write, and
// the JSON form ({"project_name": …}) that the original's init wrote. It
// never blocks or follows a link: a FIFO, a device, a link or a file over
// MaxMasrcSize is refused with its path.
func readMasrc(path string) (string, error) {
	data, err := safefile.ReadFile(path, MaxMasrcSize)
	if err != nil {
		return "", err
	}
	if trimmed := bytes.TrimSpace(data); len(trimmed) > 0 && trimmed[0] == '{' {
		var j struct {
			ProjectName string `json:"project_name"`
		}
		if err := json.Unmarshal(trimmed, &j); err != nil {
			return "", fmt.Errorf("%s: not valid JSON: %w", path, err)
		}
		return j.ProjectName, nil
	}
	vars, err := envfile.Parse(path, data, projectKeys)
	if err != nil {
		return "", err
	}
	return envfile.Map(vars)["PROJECT_NAME"], nil
}

// SessionName is the tmux session of a project: mas-<name> with every
// character outside [A-Za-z0-9_-] replaced by "-", or mas-tmux without a
// name.
func SessionName(project string) string {
	if project == "" {
		return "mas-tmux"
	}
	var b strings.Builder
	for _, r := range project {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	return "mas-" + b.String()
}

// ErrNoName is returned by Init without a project name.
var ErrNoName = errors.New("a project name is required")

// Init makes dir a MAS project: unit/ with a directory per agent and
// workflows/, both filled from the templates without touching files that
// exist, and a shell-form .masrc naming the project.
func Init(dir, name string) error {
	if strings.TrimSpace(name) == "" {
		return ErrNoName
	}
	masrc, err := envfile.Encode([]envfile.Var{{Key: "PROJECT_NAME", Value: name}}, projectKeys)
	if err != nil {
		return fmt.Errorf("project name: %w", err)
	}
	if err := templates.Fill(filepath.Join(dir, "unit"), filepath.Join(dir, "workflows"), roster.IDs()); err != nil {
		return err
	}
	content := append([]byte("# MAS project; read by mas, never executed\n"), masrc...)
	return safefile.WriteAtomic(filepath.Join(dir, ".masrc"), content, 0o644)
}
