// Package templates holds the default files each agent's directory starts
// from: unit/NN/ for the thirteen agents and workflows/ for the team.
package templates

import (
	"embed"
	"io/fs"
)

//go:embed all:unit all:workflows
var files embed.FS

// FS returns the embedded templates; its root holds unit/ and workflows/.
func FS() fs.FS { return files }
