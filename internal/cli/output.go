package cli

import (
	"encoding/json"
	"fmt"
)

func (cl *CommandLine) writeJSON(v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(cl.io.Stdout, "%s\n", data)
	return err
}
