package main

import (
	"bufio"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// statusTypes are, per package directory, the types whose constants are
// status words that mas prints or answers; the untyped constants of the
// block that holds wireBlock (the original API's words) are too.
var statusTypes = map[string][]string{
	"internal/app":      {"SessionState", "ServerState", "need"},
	"internal/layout":   {"State"},
	"internal/activity": {"Activity"},
	"isolated":          {"Status"},
	"internal/api":      {"SeatStatus"},
}

const wireBlock = "RunStarted"

// TestStatusVocabulary: docs/statuses.md lists exactly the status
// constants of the code, each with its word (issue 30 point 9): a word
// added, renamed or dropped in one place and not the other fails here.
func TestStatusVocabulary(t *testing.T) {
	code := statusConstants(t)
	doc := documentedStatuses(t, "docs/statuses.md")
	for _, name := range slices.Sorted(maps.Keys(code)) {
		switch word, ok := doc[name]; {
		case !ok:
			t.Errorf("%s = %q is not in docs/statuses.md", name, code[name])
		case word != code[name]:
			t.Errorf("docs/statuses.md says %s is %q; the code says %q", name, word, code[name])
		}
	}
	for _, name := range slices.Sorted(maps.Keys(doc)) {
		if _, ok := code[name]; !ok {
			t.Errorf("docs/statuses.md lists %s (%q), which is no status constant of the code", name, doc[name])
		}
	}
}

// statusConstants reads the status constants of statusTypes from the
// source: "pkg.Name" to its word. A constant made from another
// (need(activity.Asking)) takes that one's word.
func statusConstants(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	refs := map[string]string{} // constant → the constant it is made from
	for dir, types := range statusTypes {
		pkg := filepath.Base(dir)
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			file, err := parser.ParseFile(token.NewFileSet(), f, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, decl := range file.Decls {
				readConstants(decl, pkg, types, out, refs)
			}
		}
	}
	for name, ref := range refs {
		word, ok := out[ref]
		if !ok {
			t.Fatalf("%s is made from %s, which is not a status constant", name, ref)
		}
		out[name] = word
	}
	return out
}

// readConstants adds the status constants of decl, of package pkg, to
// out: those of one of types, or of the original API's block.
func readConstants(decl ast.Decl, pkg string, types []string, out, refs map[string]string) {
	g, ok := decl.(*ast.GenDecl)
	if !ok || g.Tok != token.CONST {
		return
	}
	wire := slices.ContainsFunc(g.Specs, func(s ast.Spec) bool {
		return slices.ContainsFunc(s.(*ast.ValueSpec).Names, func(n *ast.Ident) bool { return n.Name == wireBlock })
	})
	for _, s := range g.Specs {
		v := s.(*ast.ValueSpec)
		typ, _ := v.Type.(*ast.Ident)
		if len(v.Values) != len(v.Names) {
			continue
		}
		for i, n := range v.Names {
			name := pkg + "." + n.Name
			switch val := v.Values[i].(type) {
			case *ast.BasicLit:
				if word, err := strconv.Unquote(val.Value); err == nil && (wire || typ != nil && slices.Contains(types, typ.Name)) {
					out[name] = word
				}
			case *ast.CallExpr: // need(activity.Asking)
				fun, _ := val.Fun.(*ast.Ident)
				sel, _ := val.Args[0].(*ast.SelectorExpr)
				if fun != nil && slices.Contains(types, fun.Name) && sel != nil {
					refs[name] = sel.X.(*ast.Ident).Name + "." + sel.Sel.Name
				}
			}
		}
	}
}

// documentedStatuses reads the table of path: each row's constant (its
// last column) to its word (its first), both without backquotes.
func documentedStatuses(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cols := strings.Split(strings.Trim(line, "|"), " | ")
		word, name := strings.Trim(cols[0], " `"), strings.Trim(cols[len(cols)-1], " `")
		if _, dup := out[name]; dup {
			t.Errorf("%s: %s is listed twice", path, name)
		}
		out[name] = word
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
