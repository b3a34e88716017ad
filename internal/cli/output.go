package cli

import (
	"bytes"
	"encoding/json"
)

// marshalJSON is v as the indented JSON mas prints, ending in a newline.
// Text stays as it was written: "<", ">" and "&" are not escaped as
// \u003c and the like, which only JSON pasted into HTML needs and which a
// script reading mas's output would have to undo.
func marshalJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func (cl *CommandLine) writeJSON(v any) error {
	data, err := marshalJSON(v)
	if err != nil {
		return err
	}
	_, err = cl.io.Stdout.Write(data)
	return err
}
