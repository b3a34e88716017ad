package main

import (
	"strings"
	"testing"
)

// TestVersionForms checks that the three forms users try print the same
// thing, whose first line keeps the shape scripts parse.
func TestVersionForms(t *testing.T) {
	want, stderr, code := runMas(t, "version")
	if code != 0 || stderr != "" || !strings.HasPrefix(want, "mas version "+version+"\n") {
		t.Fatalf("version: exit %d, stdout %q, stderr %q", code, want, stderr)
	}
	for _, arg := range []string{"--version", "-v"} {
		if got, stderr, code := runMas(t, arg); got != want || stderr != "" || code != 0 {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 0 and %q", arg, code, got, stderr, want)
		}
	}
}
