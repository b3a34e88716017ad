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
