package legacy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSessionName(t *testing.T) {
	tests := []struct{ in, want, why string }{
		{"", "mas-tmux", "no project"},
		{"My Proj!", "mas-My-Proj-", "golden a3"},
		{"My Proj?", "mas-My-Proj-", "bug #25: lossy, as the original"},
		{"a_b-c9", "mas-a_b-c9", "allowed characters stay"},
		{"日本", "mas---", "one dash per character, not per byte"},
		{"x:y.z", "mas-x-y-z", "tmux mangles : and ."},
	}
	for _, tt := range tests {
		if got := SessionName(tt.in); got != tt.want {
			t.Errorf("SessionName(%q) = %q, want %q (%s)", tt.in, got, tt.want, tt.why)
		}
	}
}

func TestFindProject(t *testing.T) {
	tests := []struct {
		masrc, name, err, why string
	}{
		{"PROJECT_NAME=\"My Proj!\"\n", "My Proj!", "", "shell form"},
		{"# MAS Project Configuration\nPROJECT_NAME=\"x\"\nWORKSPACE_ROOT=\"/w\"\n", "x", "", "HEAD's init wrote WORKSPACE_ROOT too"},
		{"{\n  \"version\": \"2.0.0\",\n  \"project_name\": \"My Proj!\"\n}\n", "My Proj!", "", "bug #9: the JSON the original's init wrote"},
		{"PROJECT_NAME=$(id)\n", "", ".masrc:1: PROJECT_NAME: command substitution is not allowed", "bug #9: never executed"},
		{"PROJECT_NAME=x\nrm -rf ~\n", "", ".masrc:2: only KEY=value lines are allowed", ""},
		{"{broken", "", "not valid JSON", ""},
	}
	for _, tt := range tests {
		dir := t.TempDir()
		sub := filepath.Join(dir, "a", "b")
		os.MkdirAll(sub, 0o755)
		os.WriteFile(filepath.Join(dir, ".masrc"), []byte(tt.masrc), 0o644)
		p, found, err := FindProject(sub)
		if !found || p.Dir != dir {
			t.Errorf("%s: found=%v dir=%q", tt.why, found, p.Dir)
		}
		if p.Name != tt.name || (err == nil) != (tt.err == "") || err != nil && !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%s: name %q, err %v; want %q, %q", tt.why, p.Name, err, tt.name, tt.err)
		}
	}
	if _, found, _ := FindProject(t.TempDir()); found {
		t.Error("found a project where there is none")
	}
}
