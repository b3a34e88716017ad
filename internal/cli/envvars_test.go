package cli

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// notForUsers are the MAS_* names the code holds that help does not list.
var notForUsers = map[string]string{
	"MAS_HTTP_LISTEN_FD": "set by start for the serve it launches: the inherited listening socket",
	"MAS_HTTP_READY_FD":  "set by start for the serve it launches: the pipe serve reports its pid on",
	"MAS_SESSION_DIR":    "written to .session and printed by env, never read from the environment",
	"MAS_ACTIVITY":       "set for the notify command, never read; MAS_NOTIFY_COMMAND's entry names it",
	"MAS_AGENT_NAME":     "set for the notify command, never read; MAS_NOTIFY_COMMAND's entry names it",
	"MAS_MESSAGE":        "set for the notify command, never read; MAS_NOTIFY_COMMAND's entry names it",
}

// TestHelpListsEveryEnvironmentVariable collects the MAS_* names in string
// literals of the program's Go files (not tests; build tags as a normal
// build sees them, so MAS_TEST_CRASH_AT of the crashtest build is left
// out) and fails when help omits one.
func TestHelpListsEveryEnvironmentVariable(t *testing.T) {
	read := readVariables(t, filepath.Join("..", ".."))
	for _, must := range []string{"MAS_ROOT", "MAS_PANE_LOGS", "MAS_API_TOKEN"} {
		if !slices.Contains(read, must) {
			t.Fatalf("the scan found %v, not %s: it is broken", read, must)
		}
	}
	help, _, err := runCLI(t, "help")
	if err != nil {
		t.Fatal(err)
	}
	_, env, _ := strings.Cut(help, "\nEnvironment:\n")
	for _, name := range read {
		listed := regexp.MustCompile(`(?m)^  ` + name + `[ =]`).MatchString(env)
		switch _, exempt := notForUsers[name]; {
		case exempt && listed:
			t.Errorf("help lists %s, which notForUsers says is not for users", name)
		case !exempt && !listed:
			t.Errorf("help does not list %s under Environment:, which the program reads", name)
		}
	}
	for name := range notForUsers {
		if !slices.Contains(read, name) {
			t.Errorf("notForUsers names %s, which the code no longer holds", name)
		}
	}
}

// readVariables returns the sorted MAS_* names that string literals of the
// non-test Go files under root begin with.
func readVariables(t *testing.T, root string) []string {
	t.Helper()
	name := regexp.MustCompile(`^MAS_[A-Z0-9_]*[A-Z0-9]`)
	var names []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata"):
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go"):
			return nil
		}
		if ok, err := build.Default.MatchFile(filepath.Dir(path), d.Name()); err != nil || !ok {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil {
					if m := name.FindString(s); m != "" && !slices.Contains(names, m) {
						names = append(names, m)
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(names)
	return names
}
