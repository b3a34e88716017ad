package api

import (
	"net/http/httptest"
	"reflect"
	"testing"

	"mas/isolated"
)

// generic is GET /sessions's answer as writeJSON writes it, which the
// kept encodings must match byte for byte.
func generic(list []Session) string {
	if list == nil {
		list = []Session{}
	}
	rec := httptest.NewRecorder()
	writeJSON(rec, 200, map[string]any{"sessions": list, "total": len(list)})
	return rec.Body.String()
}

// kept is GET /sessions's answer through c.
func kept(c *sessionsJSON, list []Session) string {
	rec := httptest.NewRecorder()
	c.write(rec, list)
	if got := rec.Header().Get("Content-Type"); got != "application/json" {
		panic("Content-Type " + got)
	}
	return rec.Body.String()
}

// TestSessionsJSONIsWriteJSONs: the answer made of kept encodings is the
// one writeJSON makes, byte for byte, for no session, one, several, and
// sessions whose fields change between answers: every field of Session
// in turn, so that one the cache's key forgets shows here.
func TestSessionsJSONIsWriteJSONs(t *testing.T) {
	n, zero := 2, 0
	base := Session{SessionID: "11111111-1111-4111-8111-111111111111", TmuxSession: "mas-11111111", Status: "stopped",
		CreatedAt: "2026-01-02T03:04:05Z", WorkingDir: "/r/sessions/1 <&>\"é", Mode: "isolated", NeedsYou: &n, AgentCount: &zero,
		StartedAt: "2026-01-02T03:04:05Z", HTTPServerStatus: ServerRunning}
	other := base
	other.SessionID, other.Error, other.Status = "22222222-2222-4222-8222-222222222222", "creation interrupted", "error"
	c := &sessionsJSON{}
	for _, list := range [][]Session{nil, {}, {base}, {base, other}, {other, base, base}} {
		if got, want := kept(c, list), generic(list); got != want {
			t.Errorf("%d sessions:\n got %q\nwant %q", len(list), got, want)
		}
	}
	v := reflect.ValueOf(&base).Elem()
	for i := range v.NumField() {
		changed := base
		f := reflect.ValueOf(&changed).Elem().Field(i)
		switch p := f.Addr().Interface().(type) {
		case *string:
			*p += "x"
		case **int:
			m := 7
			*p = &m
		case **string:
			s := "{}"
			*p = &s
		case *[]string:
			*p = []string{"a"}
		case *[]Agent:
			*p = []Agent{{ID: "00"}}
		case **isolated.Metadata:
			*p = &isolated.Metadata{SessionID: "m"}
		default:
			t.Fatalf("field %s: a type this test does not change", v.Type().Field(i).Name)
		}
		list := []Session{base, changed}
		kept(c, []Session{base}) // base kept
		if got, want := kept(c, list), generic(list); got != want {
			t.Errorf("%s changed:\n got %q\nwant %q", v.Type().Field(i).Name, got, want)
		}
	}
}
