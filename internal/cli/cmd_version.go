package cli

import (
	"context"
	"fmt"
	"runtime/debug"
	"strings"

	ucli "github.com/urfave/cli/v2"
)

var cmdVersion = &command{name: "version", usage: "Print the version, and the commit and date it was built from", action: (*CommandLine).version,
	examples: []example{
		{"mas --version", "the same as mas version"},
	}}

// version prints "mas version <v>" (a line scripts parse) and where the
// binary comes from: the commit and its date, or how it was built.
func (cl *CommandLine) version(context.Context, *ucli.Context) error {
	bi, ok := debug.ReadBuildInfo()
	_, err := fmt.Fprint(cl.io.Stdout, versionText(cl.io.Version, bi, ok))
	return err
}

// versionText is the output of "mas version" for the build bi (ok false:
// the binary carries no build information).
func versionText(version string, bi *debug.BuildInfo, ok bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "mas version %s\n", version)
	if !ok {
		b.WriteString("commit: unknown (the binary carries no build information)\n")
		return b.String()
	}
	vcs := map[string]string{}
	for _, s := range bi.Settings {
		vcs[s.Key] = s.Value
	}
	switch rev := vcs["vcs.revision"]; {
	case rev != "":
		if vcs["vcs.modified"] == "true" {
			rev += " (with uncommitted changes)"
		}
		fmt.Fprintf(&b, "commit: %s\n", rev)
		if t := vcs["vcs.time"]; t != "" {
			fmt.Fprintf(&b, "commit date: %s\n", t)
		}
	case bi.Main.Version != "" && bi.Main.Version != "(devel)":
		// go install module@version builds from the module cache, where
		// there is no repository to read a commit from.
		fmt.Fprintf(&b, "built by go install %s@%s (no commit recorded)\n", bi.Main.Path, bi.Main.Version)
	default:
		b.WriteString("commit: unknown (built outside a git checkout or with -buildvcs=false)\n")
	}
	if bi.GoVersion != "" {
		fmt.Fprintf(&b, "go: %s\n", bi.GoVersion)
	}
	return b.String()
}
