package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"mas/internal/remote"
)

// TestServeRemoteKeepsTextAsPrinted: the reply carries what the command
// printed without HTML escaping, which writes '<', '>' and '&' in 6 bytes
// each: a peek of an agent's screen full of HTML would pass the caller's
// cap (remote.MaxReply) at a sixth of its size.
func TestServeRemoteKeepsTextAsPrinted(t *testing.T) {
	printed := strings.Repeat("<a href=x>&</a>\n", 2<<20/16)
	var stdout, stderr bytes.Buffer
	e := IO{
		Args:    []string{"mas", remote.Command},
		Getenv:  func(string) string { return "" },
		Environ: func() []string { return nil },
		Stdin:   strings.NewReader(`{"protocol":1,"args":["peek","00"]}`),
		Stdout:  &stdout,
		Stderr:  &stderr,
		Version: "v",
	}
	r := Runner{
		Run: func(_ context.Context, e IO) int {
			io.WriteString(e.Stdout, printed)
			return 0
		},
		Fail: func(err error, w io.Writer) int {
			fmt.Fprintln(w, err)
			return 1
		},
	}
	if code := ServeRemote(context.Background(), e, r); code != 0 {
		t.Fatalf("ServeRemote = %d, stderr %s", code, stderr.String())
	}
	if n := stdout.Len(); n > len(printed)*5/4 {
		t.Errorf("the reply of %d bytes of text is %d bytes", len(printed), n)
	}
	if !strings.Contains(stdout.String(), `<a href=x>&</a>\n`) {
		t.Errorf("the reply does not hold the text as printed: %.100s", stdout.String())
	}
}
