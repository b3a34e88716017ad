package envfile

import (
	"fmt"
	"testing"
)

func TestExports(t *testing.T) {
	vars := []Var{{"B", "it's $x"}, {"A", "/plain"}, {"C", `back\slash 'q'`}}
	tests := []struct {
		sh   Shell
		want string
	}{
		{POSIX, "export A=/plain\nexport B=\"it's \\$x\"\nexport C=\"back\\\\slash 'q'\"\n"},
		{Bash, "export A=/plain\nexport B=\"it's \\$x\"\nexport C=\"back\\\\slash 'q'\"\n"},
		{Fish, "set -gx A '/plain'\nset -gx B 'it\\'s $x'\nset -gx C 'back\\\\slash \\'q\\''\n"},
	}
	for _, tt := range tests {
		got, err := Exports(vars, tt.sh)
		if err != nil || got != tt.want {
			t.Errorf("Exports(%s) = %q, %v\nwant %q", tt.sh, got, err, tt.want)
		}
	}
	if _, err := Exports([]Var{{"A", "a\nb"}}, POSIX); err == nil {
		t.Error("Exports accepted a newline")
	}
	if got := Unsets([]string{"B", "A"}, Zsh); got != "unset A B\n" {
		t.Errorf("Unsets = %q", got)
	}
	if _, err := ParseShell("csh"); err == nil {
		t.Error("ParseShell(csh) succeeded")
	}
}

func ExampleExports() {
	out, _ := Exports([]Var{{"UNIT_DIR", "/srv/my mas/unit"}, {"MAS_SESSION_ID", "1612c47f"}}, Fish)
	fmt.Print(out)
	// Output:
	// set -gx MAS_SESSION_ID '1612c47f'
	// set -gx UNIT_DIR '/srv/my mas/unit'
}

func TestParseShell(t *testing.T) {
	tests := []struct {
		name string
		want Shell
		err  string
		why  string
	}{
		{"bash", Bash, "", ""},
		{"zsh", Zsh, "", ""},
		{"posix", POSIX, "", ""},
		{"sh", POSIX, "", "sh is posix, though messages do not offer it"},
		{"fish", Fish, "", ""},
		{"csh", "", `unknown shell "csh" (want bash, zsh, posix or fish)`, "the message lists ShellNames"},
		{"Bash", "", `unknown shell "Bash" (want bash, zsh, posix or fish)`, "case-sensitive"},
		{"", "", `unknown shell "" (want bash, zsh, posix or fish)`, "no name"},
	}
	for _, tt := range tests {
		got, err := ParseShell(tt.name)
		errText := ""
		if err != nil {
			errText = err.Error()
		}
		if got != tt.want || errText != tt.err {
			t.Errorf("ParseShell(%q) = %q, %v; want %q, %s (%s)", tt.name, got, err, tt.want, tt.err, tt.why)
		}
	}
}
