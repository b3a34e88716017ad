package envfile

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// literalTests are files that bash reads without expanding or running
// anything, with the value bash gives STATUS. TestParseLiteral checks every
// row against real bash too.
var literalTests = []struct {
	in, want string
	why      string
}{
	{`STATUS='it'\''s'`, "it's", "the usual sh idiom for a quote inside quotes"},
	{`STATUS=it\'s\ x`, "it's x", "unquoted backslash escapes: \\x is x (was refused)"},
	{`STATUS=\a\b\\c`, `ab\c`, "a backslash before an ordinary character just quotes it"},
	{`STATUS=a\ b\ \ c`, "a b  c", "printf %q style spaces"},
	{`STATUS=\{a\,b\}\[x\]\*\?\!\^\#\&\;\|\<\>\(\)`, "{a,b}[x]*?!^#&;|<>()", "everything printf %q escapes"},
	{"STATUS=\\$HOME\\ \\`id\\`", "$HOME `id`", "escaped $ and backquotes are literal"},
	{`STATUS="a\"b"`, `a"b`, `\" inside double quotes`},
	{`STATUS="\$HOME"`, "$HOME", `\$ inside double quotes (go-envparse has no \$; it vetoed this before)`},
	{`STATUS="\\"`, `\`, `\\ inside double quotes`},
	{"STATUS=\"\\`id\\`\"", "`id`", "\\` inside double quotes"},
	{`STATUS="a\qb\'c\ d"`, `a\qb\'c\ d`, "inside double quotes a backslash before another character stays"},
	{`STATUS='a\b\'`, `a\b\`, "nothing is special inside single quotes"},
	{`STATUS='$(id) ${x} $((1))'`, "$(id) ${x} $((1))", "single-quoted expansions are text"},
	{`STATUS="it's"`, "it's", "a single quote inside double quotes"},
	{`STATUS='it'"'"'s'`, "it's", "what shlex.quote prints"},
	{`STATUS=a'b c'"d e"\ f`, "ab cd e f", "concatenation of every kind"},
	{`STATUS=`, "", "empty value"},
	{`STATUS=''`, "", "empty single quotes"},
	{`STATUS=""`, "", "empty double quotes"},
	{`STATUS= # nothing`, "", "empty value with a comment"},
	{`STATUS=active # set by hand`, "active", "a trailing comment (was refused: issue 14)"},
	{`STATUS='a b' # it's "fine"`, "a b", "quotes inside a comment do not count"},
	{`STATUS=a#b`, "a#b", "# inside a word is text (go-envparse vetoed this before)"},
	{`STATUS=#b`, "#b", "# right after = is text too"},
	{`STATUS='x'#y`, "x#y", "# after a quote is text"},
	{`STATUS=a\ #b`, "a #b", "# after an escaped space is text"},
	{`STATUS=x~y`, "x~y", "~ inside a word is text"},
	{`STATUS=\~`, "~", "escaped ~"},
	{`STATUS='~'`, "~", "quoted ~"},
	{`STATUS="~/x"`, "~/x", "double-quoted ~"},
	{`STATUS=a:\~`, "a:~", "printf %q of a:~"},
	{`STATUS=a\:~`, "a:~", "a ~ after an escaped : is text"},
	{`STATUS=x=\~`, "x=~", "printf %q of x=~"},
	{`STATUS=*`, "*", "no pathname expansion in an assignment (the test directory holds files)"},
	{`STATUS={a,b}`, "{a,b}", "no brace expansion in an assignment"},
	{`STATUS=!x`, "!x", "no history expansion in a script"},
	{`STATUS="a!b"`, "a!b", ""},
	{`STATUS=a=b:c,d@e%f+g`, "a=b:c,d@e%f+g", "plain punctuation"},
	{`STATUS=ünï\ ✓`, "ünï ✓", "unicode with an escape"},
	{"# a comment ending in a backslash \\\nSTATUS=a", "a", "a comment does not continue on the next line"},
	{"STATUS='a' # c \\\n", "a", "nor does a trailing comment"},
	{"\n  STATUS=indented\n\n", "indented", "blank lines and leading spaces"},
}

func bashReads(t *testing.T, bash, content string) (string, error) {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	// Files that a glob would match, if bash expanded one.
	for _, name := range []string{"a", "b", "x"} {
		os.WriteFile(filepath.Join(dir, name), nil, 0o600)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bash, "-c", `set -e; source "$1"; printf %s "$STATUS"`, "bash", file)
	cmd.Env = []string{"PATH=", "HOME=/home/someone", "LC_ALL=C.UTF-8"}
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("%v: %s", err, out)
	}
	return string(out), nil
}

func TestParseLiteral(t *testing.T) {
	bash, _ := exec.LookPath("bash")
	for _, tt := range literalTests {
		vars, err := Parse("f", []byte(tt.in), sessionKeys)
		if err != nil || len(vars) != 1 || vars[0] != (Var{"STATUS", tt.want}) {
			t.Errorf("Parse(%q) = %q, %v; want STATUS=%q (%s)", tt.in, vars, err, tt.want, tt.why)
		}
		if bash == "" {
			continue
		}
		if got, err := bashReads(t, bash, tt.in); err != nil || got != tt.want {
			t.Errorf("bash reads %q as %q, %v; the table says %q", tt.in, got, err, tt.want)
		}
	}
}

func TestParseRefusesWithLine(t *testing.T) {
	tests := []struct {
		in   string
		line int
		err  string
		why  string
	}{
		{"STATUS=a\nUNIT_DIR=$x\n", 2, "UNIT_DIR: variable expansion is not allowed", ""},
		{"# c\n\nSTATUS=\"a$x\"\n", 3, "variable expansion inside double quotes is not allowed", ""},
		{"STATUS=${x}\n", 1, "variable expansion is not allowed", ""},
		{"STATUS=a$(id)\n", 1, "command substitution is not allowed", ""},
		{"STATUS=\"`id`\"\n", 1, "command substitution inside double quotes is not allowed", ""},
		{"STATUS=$((1+1))\n", 1, "arithmetic expansion is not allowed", ""},
		{"STATUS=<(id)\n", 1, "process substitution is not allowed", ""},
		{"STATUS=a$\n", 1, `an unquoted '$' is not allowed`, "bash keeps it, but a $ is quoted by every writer"},
		{"STATUS=\"a$\"\n", 1, `an unescaped '$' inside double quotes is not allowed`, ""},
		{"STATUS=~\n", 1, `an unquoted "~" is not allowed here`, "expands to $HOME"},
		{"STATUS=~/x\n", 1, `an unquoted "~" is not allowed here`, ""},
		{"STATUS=~root\n", 1, `an unquoted "~" is not allowed here`, "looks a user up"},
		{"STATUS=a:~\n", 1, `an unquoted "~" is not allowed here`, "bash expands ~ after : in an assignment"},
		{"STATUS='':~\n", 1, `an unquoted "~" is not allowed here`, "the : is unquoted even after quotes"},
		{"STATUS=\"a\":~/b\n", 1, `an unquoted "~" is not allowed here`, ""},
		{"STATUS=x=~\n", 1, `an unquoted "~" is not allowed here`, "bash in POSIX mode expands it"},
		{"STATUS=''~\n", 1, `an unquoted "~" is not allowed here`, "a ~ right after quotes: refused to be safe"},
		{"STATUS=$'a'\n", 1, "$'…' strings are not allowed", ""},
		{"STATUS=$\"a\"\n", 1, `$"…" strings are not allowed`, "translated by the locale"},
		{"STATUS=a\\\nb\n", 1, "a line continuation", ""},
		{"STATUS=a\nUNIT_DIR=b\\\n\n", 2, "a line continuation", "a continuation at the end of a value"},
		{"\\\nSTATUS=b\n", 1, "a line continuation", "a continuation before the assignment"},
		{"STATUS=\"a\\\nb\"\n", 1, "a line continuation", "bash joins lines inside double quotes too"},
		{"STATUS='a\nb'\n", 1, "an assignment must fit on one line", ""},
		{"STATUS=a\\", 1, `a "\" at the end of the value is not allowed`, "a backslash at the end of the file"},
		{"STATUS=a; UNIT_DIR=b\n", 1, `";" or "&" is not allowed`, "several commands"},
		{"STATUS=a && id\n", 1, "only KEY=value lines are allowed", ""},
		{"STATUS=a >x\n", 1, "redirections are not allowed", ""},
		{"STATUS=a b\n", 1, "extra words would run as a command", ""},
		{"STATUS=a# c\n", 1, "extra words would run as a command", "a # inside a word starts no comment"},
		{"export STATUS=a\n", 1, "only KEY=value lines are allowed", ""},
		{"STATUS=(a)\n", 1, "arrays are not allowed", ""},
		{"STATUS+=a\n", 1, `"+=" is not allowed`, ""},
		{"STATUS=a\nOTHER=b\n", 2, `key "OTHER" is not allowed`, ""},
		{"STATUS=a\x00\n", 1, "contains a NUL byte", ""},
		{"STATUS=a\nUNIT_DIR=b\r\n", 2, "contains a carriage return", ""},
		{"STATUS='a\x07'\n", 1, "contains the control character U+0007", ""},
		{"STATUS=a\t# c\n", 1, "contains the control character U+0009", "tabs are control characters"},
		{"STATUS='" + strings.Repeat("a", MaxValueLen+1) + "'\n", 1, "value of STATUS: longer than 4096 bytes", "a value Encode could not write back"},
		{"STATUS='a\u00a0'\n", 1, "value of STATUS: contains U+00A0", "a value Encode could not write back"},
	}
	for _, tt := range tests {
		vars, err := Parse("f", []byte(tt.in), sessionKeys)
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("Parse(%q) = %q, %v; want a ParseError at line %d (%s)", tt.in, vars, err, tt.line, tt.why)
			continue
		}
		if pe.Line != tt.line || !strings.Contains(pe.Reason, tt.err) {
			t.Errorf("Parse(%q) error %q; want line %d and %q (%s)", tt.in, err, tt.line, tt.err, tt.why)
		}
	}
}

// shlexQuote is Python's shlex.quote.
func shlexQuote(s string) string {
	if s == "" {
		return "''"
	}
	if !regexp.MustCompile(`[^\w@%+=:,./-]`).MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'"'"'`) + "'"
}

// TestQuotersReadBack quotes random printable values with bash's printf
// %q, Python's shlex.quote and Encode; Parse must read each as the value,
// and bash must too.
func TestQuotersReadBack(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	const alphabet = "ab é~:=#!*?[]{}(),;&|<>^%@+-./\\$`'\" "
	runes := []rune(alphabet)
	r := rand.New(rand.NewPCG(14, 6))
	values := append([]string{}, trickyValues...)
	for range 300 {
		var b strings.Builder
		for range r.IntN(9) {
			b.WriteRune(runes[r.IntN(len(runes))])
		}
		values = append(values, b.String())
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bash, "-c", `printf '%q\0' "$@"`, "bash")
	cmd.Args = append(cmd.Args, values...)
	cmd.Env = []string{"PATH=", "LC_ALL=C.UTF-8"}
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	printfQ := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")

	var content strings.Builder
	var keys, want []string
	add := func(how, v, q string) {
		k := fmt.Sprintf("V%04d", len(keys))
		line := k + "=" + q + "\n"
		vars, err := Parse("f", []byte(line), []string{k})
		if err != nil || len(vars) != 1 || vars[0].Value != v {
			t.Errorf("%s of %q is %s; Parse reads %q, %v", how, v, q, vars, err)
			return
		}
		content.WriteString(line)
		keys, want = append(keys, k), append(want, v)
	}
	for i, v := range values {
		if strings.HasPrefix(printfQ[i], "$'") {
			t.Errorf("printf %%q wrote %s for %q: the locale is not UTF-8", printfQ[i], v)
		}
		add("printf %q", v, printfQ[i])
		add("shlex.quote", v, shlexQuote(v))
		enc, err := Encode([]Var{{"STATUS", v}}, sessionKeys)
		if err != nil {
			t.Fatal(err)
		}
		add("Encode", v, strings.TrimSuffix(strings.TrimPrefix(string(enc), "STATUS="), "\n"))
	}
	path := filepath.Join(t.TempDir(), "f")
	os.WriteFile(path, []byte(content.String()), 0o600)
	for i, got := range sourceIn(t, bash, path, keys) {
		if got != want[i] {
			t.Errorf("bash reads %s=%q, want %q", keys[i], got, want[i])
		}
	}
}

func ExampleParse_handEdited() {
	vars, _ := Parse(".session", []byte("STATUS=stopped # by hand\nUNIT_DIR=/w/it\\'s\\ mine\nSESSION_DIR=\"/w/\\$HOME\"\n"), sessionKeys)
	for _, v := range vars {
		fmt.Printf("%s=%s\n", v.Key, v.Value)
	}
	// Output:
	// STATUS=stopped
	// UNIT_DIR=/w/it's mine
	// SESSION_DIR=/w/$HOME
}
