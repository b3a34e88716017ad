package cli

import "testing"

// What mas prints as JSON keeps "<", ">" and "&" as they are: a script
// reading a message or a path gets the text, not \u003c escapes.
func TestMarshalJSONKeepsText(t *testing.T) {
	got, err := marshalJSON(map[string]string{"message": "a <b> & c"})
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"message\": \"a <b> & c\"\n}\n"
	if string(got) != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
