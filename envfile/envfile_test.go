package envfile

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite golden files")

func TestParseRejects(t *testing.T) {
	tests := []struct {
		in, err string
		why     string
	}{
		{"SESSION_ID=$(touch pwned)\n", "f:1: SESSION_ID: command substitution is not allowed", "runs a command when sourced"},
		{"SESSION_ID=`touch pwned`\n", "command substitution is not allowed", "old-style substitution"},
		{"SESSION_ID=\"$(id)\"\n", "command substitution inside double quotes is not allowed", "quotes do not stop $(…)"},
		{"SESSION_ID=${HOME}\n", "variable expansion is not allowed", "reads the environment"},
		{"SESSION_ID=$HOME\n", "variable expansion is not allowed", ""},
		{"SESSION_ID=\"x$HOME\"\n", "variable expansion inside double quotes is not allowed", ""},
		{"SESSION_ID=$((1+2))\n", "arithmetic expansion is not allowed", "arithmetic can run code through array subscripts"},
		{"SESSION_ID=~root\n", `f:1: SESSION_ID: an unquoted "~" is not allowed here`, "tilde expansion looks users up"},
		{"SESSION_ID=a:~/x\n", `an unquoted "~" is not allowed here`, "bash expands ~ after : in assignments"},
		{"SESSION_ID=$'a\\nb'\n", "$'…' strings are not allowed", "locale-dependent, not POSIX"},
		{"SESSION_ID=x; touch pwned\n", `";" or "&" is not allowed`, "a second command"},
		{"SESSION_ID=x && touch pwned\n", "only KEY=value lines are allowed", ""},
		{"SESSION_ID=x | cat\n", "only KEY=value lines are allowed", ""},
		{"SESSION_ID=x &\n", "only KEY=value lines are allowed", "background job"},
		{"SESSION_ID=x >/tmp/pwned\n", "redirections are not allowed", "creates a file"},
		{"SESSION_ID=x touch pwned\n", "extra words would run as a command", "bug #8: unquoted value with a space"},
		{"export SESSION_ID=x\n", "only KEY=value lines are allowed", "export is a command"},
		{"SESSION_ID=(a b)\n", "arrays are not allowed", ""},
		{"SESSION_ID[0]=a\n", "arrays are not allowed", ""},
		{"SESSION_ID+=a\n", `"+=" is not allowed`, ""},
		{"touch pwned\n", "only KEY=value lines are allowed", "a plain command"},
		{"PS4='$(touch pwned)'\n", `key "PS4" is not allowed`, "runs code in set -x traces"},
		{"BASH_ENV=/tmp/x\n", `key "BASH_ENV" is not allowed`, "sourced by every bash script"},
		{"PROMPT_COMMAND=id\n", `key "PROMPT_COMMAND" is not allowed`, "runs before every prompt"},
		{"PATH=/tmp\n", `key "PATH" is not allowed`, "hijacks commands"},
		{"IFS=x\n", `key "IFS" is not allowed`, "changes word splitting"},
		{"SESSION_ID=a\nSESSION_ID=b\n", "f:2: SESSION_ID is assigned twice", "which one wins is unclear"},
		{"SESSION_ID='a\nb'\n", "an assignment must fit on one line", "values are one line"},
		{"SESSION_ID=a\r\n", "f:1: contains a carriage return", "bash keeps the CR in the value"},
		{"SESSION_ID=a\x00b\n", "contains a NUL byte", "the mvdan lexer drops NUL"},
		{"SESSION_ID=a\x1b[31m\n", "contains the control character U+001B", "terminal escapes"},
		{"STATUS=ok\nSESSION_ID=\xff\n", "f:2: not valid UTF-8", ""},
		{"SESSION_ID='unterminated\n", "f:1:", "syntax errors carry the line"},
		{"if true; then SESSION_ID=x; fi\n", "", "compound commands"},
		{"f() { :; }\n", "", "function definitions"},
		{strings.Repeat("#", MaxFileSize+1), "larger than", "size cap"},
	}
	for _, tt := range tests {
		vars, err := Parse("f", []byte(tt.in), sessionKeys)
		if err == nil {
			t.Errorf("Parse(%q) accepted %q; want error %q (%s)", tt.in, vars, tt.err, tt.why)
			continue
		}
		if !strings.Contains(err.Error(), tt.err) {
			t.Errorf("Parse(%q) error %q, want it to contain %q (%s)", tt.in, err, tt.err, tt.why)
		}
	}
}

func TestParseAccepts(t *testing.T) {
	tests := []struct {
		in   string
		want []Var
		why  string
	}{
		{"", nil, "empty file"},
		{"# written by mas\n\nSTATUS=active\n", []Var{{"STATUS", "active"}}, "comments and blank lines"},
		{"SESSION_DIR=/w/mas/sessions/1612c47f-311d-47a2-9181-2d681720efa6\n",
			[]Var{{"SESSION_DIR", "/w/mas/sessions/1612c47f-311d-47a2-9181-2d681720efa6"}}, "the original's plain values"},
		{"UNIT_DIR='/w/my mas/unit'\n", []Var{{"UNIT_DIR", "/w/my mas/unit"}}, "single quotes"},
		{"UNIT_DIR=\"/w/it's \\\"q\\\" \\\\\"\n", []Var{{"UNIT_DIR", "/w/it's \"q\" \\"}}, "escapes inside double quotes"},
		{"UNIT_DIR='a'\"'\"'b'\n", []Var{{"UNIT_DIR", "a'b"}}, "quote concatenation"},
		{"STATUS=\n", []Var{{"STATUS", ""}}, "empty value"},
		{"STATUS=a=b\n", []Var{{"STATUS", "a=b"}}, "= inside a value is literal (the original's API cut it off)"},
		{"STATUS=ünïcødé\n", []Var{{"STATUS", "ünïcødé"}}, "unicode"},
		{"STATUS=active", []Var{{"STATUS", "active"}}, "no final newline"},
	}
	for _, tt := range tests {
		got, err := Parse("f", []byte(tt.in), sessionKeys)
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("Parse(%q) = %q, %v; want %q (%s)", tt.in, got, err, tt.want, tt.why)
		}
	}
}

func TestEncodeRefuses(t *testing.T) {
	tests := []struct {
		vars []Var
		err  string
	}{
		{[]Var{{"STATUS", "a\x00b"}}, "value of STATUS: contains a NUL byte"},
		{[]Var{{"STATUS", "a\nb"}}, "value of STATUS: contains the control character U+000A"},
		{[]Var{{"STATUS", "a\tb"}}, "value of STATUS: contains the control character U+0009"},
		{[]Var{{"STATUS", "a\u0085b"}}, "value of STATUS: contains the control character U+0085"},
		{[]Var{{"STATUS", "a\u00a0b"}}, "value of STATUS: contains U+00A0"},
		{[]Var{{"STATUS", "\xff"}}, "value of STATUS: not valid UTF-8"},
		{[]Var{{"STATUS", strings.Repeat("a", MaxValueLen+1)}}, "value of STATUS: longer than 4096 bytes"},
		{[]Var{{"PATH", "/bin"}}, `key "PATH" is not allowed`},
		{[]Var{{"STATUS", "a"}, {"STATUS", "b"}}, "key STATUS given twice"},
	}
	for _, tt := range tests {
		_, err := Encode(tt.vars, sessionKeys)
		if err == nil || err.Error() != tt.err {
			t.Errorf("Encode(%q) error %v, want %q", tt.vars, err, tt.err)
		}
	}
}

// trickyValues are written, read and sourced by real shells below.
var trickyValues = []string{
	"/plain/path",
	"/w/my mas/sessions/x",
	"it's",
	`say "hi"`,
	"$HOME and ${HOME}",
	"`id` $(id)",
	`back\slash \\ \n`,
	"# not a comment",
	"a=b=c",
	"it's $HOME and `id` and \\",
	"ünïcødé ✓ 日本",
	"-n",
	"*",
	"'",
	"\"",
	"",
	" leading and trailing ",
	"{a,b}",
	"!bang",
	"semi;colon & amp | pipe > gt < lt",
}

func trickyVars() []Var {
	vars := make([]Var, len(trickyValues))
	for i, v := range trickyValues {
		vars[i] = Var{Key: fmt.Sprintf("V%02d", i), Value: v}
	}
	return vars
}

func trickyKeys() []string {
	var keys []string
	for _, v := range trickyVars() {
		keys = append(keys, v.Key)
	}
	return keys
}

func TestGolden(t *testing.T) {
	vars := []Var{
		{"SESSION_ID", "1612c47f-311d-47a2-9181-2d681720efa6"},
		{"TMUX_SESSION", "mas-1612c47f"},
		{"STATUS", "active"},
		{"CREATED_AT", "2026-11-22T07:03:21Z"},
		{"UNIT_DIR", "/srv/my mas/sessions/1612c47f-311d-47a2-9181-2d681720efa6/unit"},
		{"WORKFLOWS_DIR", "/srv/it's/sessions/1612c47f-311d-47a2-9181-2d681720efa6/workflows"},
		{"SESSION_DIR", "/srv/$HOME `x`/sessions/1612c47f-311d-47a2-9181-2d681720efa6"},
		{"MAS_SESSION_DIR", "/srv/plain/sessions/1612c47f-311d-47a2-9181-2d681720efa6"},
		{"MAS_WORKSPACE_ROOT", "/srv/ünï #1"},
		{"MAS_SESSION_MODE", "isolated"},
	}
	for _, tc := range []struct {
		name string
		vars []Var
		keys []string
	}{
		{"session", vars, sessionKeys},
		{"tricky", trickyVars(), trickyKeys()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Encode(tc.vars, tc.keys)
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", tc.name+".golden")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("Encode differs from %s (go test -update to accept):\n%s", golden, got)
			}
			// write → read → write is byte-identical.
			back, err := Parse(golden, want, tc.keys)
			if err != nil {
				t.Fatal(err)
			}
			again, err := Encode(back, tc.keys)
			if err != nil || !bytes.Equal(again, want) {
				t.Errorf("re-encoding differs: %v\n%s", err, again)
			}
		})
	}
}

// TestOriginalFiles reads .session files in the shape the original tool
// wrote them (unquoted values, mode 0644).
func TestOriginalFiles(t *testing.T) {
	files, err := filepath.Glob("testdata/original/*.session")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		vars, err := Parse(f, data, sessionKeys)
		if strings.Contains(f, "spaces") {
			// Bug #8: bash runs "mas/sessions/…" as a command when it
			// sources this file; we refuse it rather than guess.
			if err == nil || !strings.Contains(err.Error(), ":5: a value with spaces must be quoted") {
				t.Errorf("%s: err = %v, want refusal at line 5", f, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		var keys []string
		for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
			k, v, _ := strings.Cut(line, "=")
			keys = append(keys, k)
			if vars[i] != (Var{k, v}) {
				t.Errorf("%s: line %d read as %q", f, i+1, vars[i])
			}
		}
		if !slices.Equal(keys, sessionKeys[:7]) {
			t.Errorf("%s: keys %v", f, keys)
		}
		if out, _ := Encode(vars, sessionKeys); !bytes.Equal(out, data) {
			t.Errorf("%s: plain values are not written exactly as the original wrote them:\n%s", f, out)
		}
	}
}

func TestWriteAndRead(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".session")
	vars := []Var{{"SESSION_ID", "x"}, {"STATUS", "active"}}
	if err := Write(path, vars, sessionKeys); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode = %v, %v; want 0600", fi.Mode(), err)
	}
	vars[1].Value = "stopped"
	if err := Write(path, vars, sessionKeys); err != nil {
		t.Fatal(err)
	}
	got, err := Read(path, sessionKeys)
	if err != nil || !slices.Equal(got, vars) {
		t.Fatalf("Read = %q, %v", got, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
	if err := Write(path, []Var{{"STATUS", "a\nb"}}, sessionKeys); err == nil {
		t.Error("Write accepted a newline")
	}
	if got, _ := Read(path, sessionKeys); !slices.Equal(got, vars) {
		t.Errorf("a refused Write changed the file: %q", got)
	}

	link := filepath.Join(dir, "link.session")
	os.Symlink(path, link)
	if _, err := Read(link, sessionKeys); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("Read(symlink) err = %v", err)
	}
	os.Chmod(path, 0o620)
	if _, err := Read(path, sessionKeys); !errors.Is(err, ErrWritable) || !strings.Contains(err.Error(), "writable by group or others (mode 0620)") {
		t.Errorf("Read(group-writable) err = %v", err)
	}
	os.Chmod(path, 0o644)
	if _, err := Read(path, sessionKeys); err != nil {
		t.Errorf("Read(0644) err = %v: the original wrote 0644 files", err)
	}
	if _, err := Read(dir, sessionKeys); err == nil {
		t.Error("Read(directory) succeeded")
	}
}

// sourceIn sources file in shell and prints each key's value, NUL-ended.
func sourceIn(t *testing.T, shell, file string, keys []string) []string {
	t.Helper()
	script := `. "$1"; shift; for k in "$@"; do eval "printf '%s\0' \"\$$k\""; done`
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, shell, "-c", script, shell, file)
	cmd.Args = append(cmd.Args, keys...)
	cmd.Env = []string{"PATH=", "HOME=/nonexistent"}
	cmd.Dir = t.TempDir()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil || stderr.Len() > 0 {
		t.Fatalf("%s: %v %s", shell, err, stderr.String())
	}
	vals := strings.Split(string(out), "\x00")
	return vals[:len(vals)-1]
}

func shells(t *testing.T) []string {
	var found []string
	for _, sh := range []string{"bash", "dash", "zsh"} {
		if p, err := exec.LookPath(sh); err == nil {
			found = append(found, p)
		} else if sh != "zsh" && os.Getenv("CI") != "" {
			t.Fatalf("%s is not installed", sh)
		}
	}
	return found
}

// TestShellsAgree sources written files in real shells and compares every
// value with what the Go reader returns.
func TestShellsAgree(t *testing.T) {
	vars := trickyVars()
	path := filepath.Join(t.TempDir(), "f.session")
	if err := Write(path, vars, trickyKeys()); err != nil {
		t.Fatal(err)
	}
	goVals, err := Read(path, trickyKeys())
	if err != nil {
		t.Fatal(err)
	}
	for _, sh := range shells(t) {
		got := sourceIn(t, sh, path, trickyKeys())
		for i, v := range goVals {
			if i >= len(got) || got[i] != v.Value || v.Value != trickyValues[i] {
				t.Errorf("%s: %s = %q, Go read %q, written %q", filepath.Base(sh), v.Key, got[i], v.Value, trickyValues[i])
			}
		}
	}
}

func FuzzParse(f *testing.F) {
	seeds := []string{
		"SESSION_ID=x\n", "STATUS='a b'\n", "STATUS=\"it's\"\n", "STATUS='a'\"'\"'b'\n",
		"STATUS=$(id)\n", "STATUS=`id`\n", "STATUS=a;b\n", "# c\nSTATUS=\n", "STATUS=\"\\$x\"\n",
		"STATUS=${x:-$(id)}\n", "STATUS=a\\\nb\n", "STATUS=$((x[$(id)]))\n", "STATUS=<(id)\n",
		// Literal quoting that bash reads (issue 14): each must read as bash reads it.
		"STATUS='it'\\''s'\n", "STATUS=it\\'s\\ x\n", "STATUS=\"a\\$b\\\"c\\\\d\\`e\\qf\"\n",
		"STATUS=a#b # c\n", "STATUS=a:\\~\n", "STATUS=a:~\n", "STATUS=~\n", "\\\nSTATUS=a\n",
		"# c \\\nSTATUS=a\n", "STATUS=a\\", "STATUS=a$\n", "STATUS='':~\n", "STATUS=$\"x\"\n",
		"STATUS=\\\u00e9\\ \"\\\u00e9\"\n", "STATUS=a\\=~\n", "STATUS=a:''~\n", "STATUS=\"a\\\\\\\"b\" # 'c\n",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	bash, _ := exec.LookPath("bash")
	f.Fuzz(func(t *testing.T, data []byte) {
		vars, err := Parse("fuzz", data, sessionKeys)
		if err != nil {
			return
		}
		// What we accept re-encodes to something we read the same way.
		enc, err := Encode(vars, sessionKeys)
		if err != nil {
			t.Fatalf("accepted %q but cannot re-encode %q: %v", data, vars, err)
		}
		again, err := Parse("re", enc, sessionKeys)
		if err != nil || !slices.Equal(again, vars) {
			t.Fatalf("re-encoding of %q reads as %q, %v", data, again, err)
		}
		if bash == "" || len(vars) == 0 {
			return
		}
		// bash, with no PATH and in an empty directory, must read the same
		// values and print nothing: anything else means it ran something.
		path := filepath.Join(t.TempDir(), "s")
		os.WriteFile(path, data, 0o600)
		var keys []string
		for _, v := range vars {
			keys = append(keys, v.Key)
		}
		got := sourceIn(t, bash, path, keys)
		for i, v := range vars {
			if got[i] != v.Value {
				t.Fatalf("bash reads %s=%q from %q, we read %q", v.Key, got[i], data, v.Value)
			}
		}
	})
}

func ExampleEncode() {
	out, _ := Encode([]Var{
		{"SESSION_ID", "1612c47f-311d-47a2-9181-2d681720efa6"},
		{"UNIT_DIR", "/home/me/my project/unit"},
		{"SESSION_DIR", "/home/me/it's $HOME"},
	}, sessionKeys)
	fmt.Print(string(out))
	// Output:
	// SESSION_ID=1612c47f-311d-47a2-9181-2d681720efa6
	// UNIT_DIR='/home/me/my project/unit'
	// SESSION_DIR='/home/me/it'"'"'s $HOME'
}

func ExampleParse() {
	_, err := Parse(".session", []byte("STATUS=active\nUNIT_DIR=$(rm -rf ~)\n"), sessionKeys)
	fmt.Println(err)
	// Output: .session:2: UNIT_DIR: command substitution is not allowed
}
