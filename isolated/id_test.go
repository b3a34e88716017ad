package isolated

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mas/internal/safefile"
)

func TestValidateNewID(t *testing.T) {
	tests := []struct {
		id  string
		ok  bool
		why string
	}{
		{"3f0c2a9e-1b2c-4d5e-8f90-123456789abc", true, "canonical v4"},
		{"3F0C2A9E-1B2C-4D5E-8F90-123456789ABC", false, "upper case would make a second directory for the same id"},
		{"{3f0c2a9e-1b2c-4d5e-8f90-123456789abc}", false, "braces are accepted by uuid.Parse"},
		{"urn:uuid:3f0c2a9e-1b2c-4d5e-8f90-123456789abc", false, "urn form"},
		{"3f0c2a9e1b2c4d5e8f90123456789abc", false, "32 hex digits"},
		{"3f0c2a9e-1b2c-1d5e-8f90-123456789abc", false, "version 1"},
		{"3f0c2a9e-1b2c-4d5e-cf90-123456789abc", false, "not the RFC 4122 variant"},
		{"../escape", false, "bug #5: path traversal"},
		{"my session:id.x", false, "bug #5: spaces and colons"},
		{"", false, "empty"},
	}
	for _, tt := range tests {
		err := ValidateNewID(tt.id)
		if (err == nil) != tt.ok || err != nil && !errors.Is(err, ErrMalformedID) {
			t.Errorf("ValidateNewID(%q) = %v (%s)", tt.id, err, tt.why)
		}
	}
}

func TestFind(t *testing.T) {
	root := t.TempDir()
	ids := []string{
		"3f0c2a9e-1b2c-4d5e-8f90-123456789abc",
		"3f0c2a9e-ffff-4fff-bfff-ffffffffffff",
		"5d2c8e10-77ab-4f3c-9e21-a0b4c6d8e2f1",
	}
	for _, id := range append(ids, "not-a-session", "5D2C8E10-77AB-4F3C-9E21-A0B4C6D8E2F1") {
		os.MkdirAll(filepath.Join(root, "sessions", id), 0o700)
	}
	tests := []struct {
		ref, want, err, why string
	}{
		{ids[2], ids[2], "", "the full id"},
		{"5d2c8e10", ids[2], "", "its first 8 characters"},
		{"mas-5d2c8e10", ids[2], "", "its tmux name"},
		{ids[0], ids[0], "", "a full id that begins another one's first 8 characters"},
		{"5d2c", ids[2], "", "issue 26: any unique prefix of 4 characters or more, as git takes one"},
		{"5d2c8e", ids[2], "", "issue 26: 6 characters"},
		{"5d2c8e10-", ids[2], "", "issue 26: a prefix may end at a dash"},
		{"5d2c8e10-77ab-4f", ids[2], "", "issue 26: and go past one"},
		{"3f0c2a9e-f", ids[1], "", "issue 26: one character past the first 8 tells two sessions apart"},
		{"3f0c", "", "session 3f0c is ambiguous: it matches " + ids[0] + ", " + ids[1], "issue 26: an ambiguous prefix lists the candidates"},
		{"3f0c2a9e", "", "session 3f0c2a9e is ambiguous: it matches " + ids[0] + ", " + ids[1], "so do 8 characters"},
		{"mas-3f0c2a9e", "", "is ambiguous", "so does the tmux name two ids share"},
		{"dead", "", "no such session dead under " + filepath.Join(root, "sessions"), "a prefix of no id"},
		{"deadbeef", "", "no such session deadbeef under " + filepath.Join(root, "sessions"), ""},
		{"9a1f0c3e-5b7d-4e2a-8c6f-d4b2a0e8c6f4", "", "no such session", ""},
		{"5d2", "", "malformed session id", "3 characters: too few to name a session"},
		{"mas-5d2c", "", "malformed session id", "a tmux name has 8 characters after mas-"},
		{"5d2c8e107", "", "malformed session id", "no dash where a UUID has one"},
		{ids[2] + "0", "", "malformed session id", "longer than an id"},
		{"5D2C8E10", "", "malformed session id", "upper case: ids are lower case"},
		{"../sessions/5d2c8e10", "", "malformed session id", "bug #5: path traversal"},
		{"5d2c8e1.", "", "malformed session id", ""},
		{"mas-", "", "malformed session id", ""},
		{"", "", "malformed session id", ""},
	}
	for _, tt := range tests {
		got, err := Find(root, tt.ref)
		if got != tt.want || (err == nil) != (tt.err == "") || err != nil && !strings.Contains(err.Error(), tt.err) {
			t.Errorf("Find(%q) = %q, %v; want %q, %q (%s)", tt.ref, got, err, tt.want, tt.err, tt.why)
		}
	}
	var amb *AmbiguousError
	if _, err := Find(root, "3f0c"); !errors.As(err, &amb) || amb.Ref != "3f0c" || len(amb.IDs) != 2 {
		t.Errorf("Find(3f0c): %v; want an *AmbiguousError with both ids", err)
	}
	if _, err := Find(t.TempDir(), "deadbeef"); !errors.Is(err, ErrNoSession) {
		t.Errorf("Find without sessions/: %v", err)
	}
	// A sessions directory that is a link is refused, whether the whole
	// id is given or a prefix.
	linked := t.TempDir()
	if err := os.Symlink(filepath.Join(root, "sessions"), filepath.Join(linked, "sessions")); err != nil {
		t.Fatal(err)
	}
	for _, ref := range []string{ids[2], "5d2c"} {
		if got, err := Find(linked, ref); !errors.Is(err, safefile.ErrSymlink) {
			t.Errorf("Find(%q) through a linked sessions directory = %q, %v; want it refused", ref, got, err)
		}
	}
	if _, err := Find(t.TempDir(), ids[0]); !errors.Is(err, ErrNoSession) {
		t.Errorf("Find(whole id) without sessions/: %v", err)
	}
}
