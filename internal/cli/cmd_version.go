package cli

import (
	"context"
	"fmt"
	"runtime/debug"
	"strings"

	ucli "github.com/urfave/cli/v2"
)

var cmdVersion = &command{name: "version", usage: "Print the version, and the commit and date it was built from",
	flags:  []flagSpec{{long: "json", usage: "print JSON: version, and commit, commitDate, modified, module, go when known"}},
	action: (*CommandLine).version,
	examples: []example{
		{"mas --version", "the same as mas version"},
	}}

// version prints "mas version <v>" (a line scripts parse) and where the
// binary comes from: the commit and its date, or how it was built; with
// --json, the same as an object.
func (cl *CommandLine) version(_ context.Context, cc *ucli.Context) error {
	bi, ok := debug.ReadBuildInfo()
	v := readVersion(cl.io.Version, bi, ok)
	if cc.Bool("json") {
		return cl.writeJSON(v)
	}
	_, err := fmt.Fprint(cl.io.Stdout, v.text())
	return err
}

// versionInfo is where a binary comes from, as version --json prints it:
// a field that is not known is left out.
type versionInfo struct {
	Version    string `json:"version"`
	Commit     string `json:"commit,omitempty"`
	CommitDate string `json:"commitDate,omitempty"` // RFC 3339
	Modified   bool   `json:"modified,omitempty"`   // built with uncommitted changes
	Module     string `json:"module,omitempty"`     // go install <module>@<version>, which records no commit
	Go         string `json:"go,omitempty"`
	// unknown says why the commit is not known, for the text.
	unknown string
}

// readVersion is where the build bi comes from (ok false: the binary
// carries no build information).
func readVersion(version string, bi *debug.BuildInfo, ok bool) versionInfo {
	v := versionInfo{Version: version}
	if !ok {
		v.unknown = "the binary carries no build information"
		return v
	}
	vcs := map[string]string{}
	for _, s := range bi.Settings {
		vcs[s.Key] = s.Value
	}
	switch rev := vcs["vcs.revision"]; {
	case rev != "":
		v.Commit, v.CommitDate, v.Modified = rev, vcs["vcs.time"], vcs["vcs.modified"] == "true"
	case bi.Main.Version != "" && bi.Main.Version != "(devel)":
		// go install module@version builds from the module cache, where
		// there is no repository to read a commit from.
		v.Module = bi.Main.Path + "@" + bi.Main.Version
	default:
		v.unknown = "built outside a git checkout or with -buildvcs=false"
	}
	v.Go = bi.GoVersion
	return v
}

// text is the output of "mas version".
func (v versionInfo) text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "mas version %s\n", v.Version)
	switch {
	case v.Commit != "":
		rev := v.Commit
		if v.Modified {
			rev += " (with uncommitted changes)"
		}
		fmt.Fprintf(&b, "commit: %s\n", rev)
		if v.CommitDate != "" {
			fmt.Fprintf(&b, "commit date: %s\n", v.CommitDate)
		}
	case v.Module != "":
		fmt.Fprintf(&b, "built by go install %s (no commit recorded)\n", v.Module)
	default:
		fmt.Fprintf(&b, "commit: unknown (%s)\n", v.unknown)
	}
	if v.Go != "" {
		fmt.Fprintf(&b, "go: %s\n", v.Go)
	}
	return b.String()
}
