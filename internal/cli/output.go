package cli

import (
	"encoding/json"
	"fmt"
)

// useColor decides once whether a stream gets ANSI colours: only a
// terminal, and never with NO_COLOR set or TERM=dumb.
func useColor(tty bool, getenv func(string) string) bool {
	return tty && getenv("NO_COLOR") == "" && getenv("TERM") != "dumb"
}

// info formats an [INFO] line for stdout, blue on a terminal.
func (cl *CommandLine) info(format string, args ...any) string {
	tag := "[INFO]"
	if useColor(cl.io.StdoutTTY, cl.io.Getenv) {
		tag = "\033[1;34m[INFO]\033[0m"
	}
	return tag + " " + fmt.Sprintf(format, args...) + "\n"
}

func (cl *CommandLine) writeJSON(v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(cl.io.Stdout, "%s\n", data)
	return err
}
