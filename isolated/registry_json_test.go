package isolated

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// trickyStrings are strings encoding/json escapes or rewrites: quotes,
// backslashes, controls, HTML's <>&, U+2028, invalid UTF-8, and text it
// leaves alone.
var trickyStrings = []string{
	"", "a", "/root/sessions/0e3c", `say "hi"`, `C:\dir`, "tab\there", "line\nnext", "\b\f\r\x00\x1f\x7f",
	"<script>&amp;</script>", "para\u2028sep\u2029", "bad\xffutf8\xc3", "\xed\xa0\x80", "é日本🙂", "\u00a0 nbsp",
}

// indexEntryFrom is an entry whose fields take s's values in turn.
func indexEntryFrom(s func() string) indexEntry {
	return indexEntry{SessionID: s(), TmuxSession: s(), Status: Status(s()), CreatedAt: s(), WorkingDir: s(), LastActivity: s()}
}

// oneSession is the index of a root with one session, as start writes it.
var oneSession = &index{Version: "1.0", LastUpdated: "2026-11-28T10:00:00Z", Sessions: []indexEntry{{
	SessionID: "0e3c3a52-8c1d-4d5e-9f00-1a2b3c4d5e6f", TmuxSession: "mas-0e3c3a52", Status: Active,
	CreatedAt: "2026-11-28T10:00:00Z", WorkingDir: "/root/sessions/0e3c3a52-8c1d-4d5e-9f00-1a2b3c4d5e6f",
}}}

// fixedIndexes are an index with no list, one with an empty list, one
// session, and an index of each tricky string.
func fixedIndexes() []*index {
	ixs := []*index{
		{Version: "1.0", Sessions: nil, LastUpdated: "2026-11-28T10:00:00Z"},
		{Version: "1.0", Sessions: []indexEntry{}, LastUpdated: "2026-11-28T10:00:00Z"},
		oneSession,
	}
	for _, tricky := range trickyStrings {
		// Each field gets another prefix of it, so that two fields
		// swapped would show.
		i := 0
		next := func() string { i++; return tricky[:min(i, len(tricky))] + tricky }
		ixs = append(ixs, &index{Version: tricky, LastUpdated: tricky, Sessions: []indexEntry{indexEntryFrom(next)}})
	}
	return ixs
}

// plainStrings are strings encoding/json writes as they are.
var plainStrings = []string{
	"", "a", "active", "/root/sessions/0e3c", "mas-0e3c3a52", "2026-11-28T10:00:00Z", "é日本🙂", "\x7f", "sp ace", "'quote'",
}

// randomIndexes are 500 indexes of up to 4 sessions whose strings are made
// of the tricky ones, always the same.
func randomIndexes() []*index { return randomIndexesOf(trickyStrings) }

// randomIndexesOf are 500 indexes of up to 4 sessions whose strings are
// made of parts, always the same.
func randomIndexesOf(parts []string) []*index {
	r := rand.New(rand.NewPCG(28, 2026))
	word := func() string {
		var b strings.Builder
		for range r.IntN(4) {
			b.WriteString(parts[r.IntN(len(parts))])
		}
		return b.String()
	}
	var ixs []*index
	for range 500 {
		ix := &index{Version: word(), LastUpdated: word(), Sessions: []indexEntry{}}
		for range r.IntN(5) {
			ix.Sessions = append(ix.Sessions, indexEntryFrom(word))
		}
		ixs = append(ixs, ix)
	}
	return ixs
}

// The layout knows every field of the index: one added to the structs and
// not to registry_json.go would be dropped from the file without a word.
func TestIndexCodecKnowsEveryField(t *testing.T) {
	for _, c := range []struct {
		v    any
		want []string
	}{
		{index{}, []string{"version", "sessions", "lastUpdated"}},
		{indexEntry{}, []string{"sessionId", "tmuxSession", "status", "createdAt", "workingDir", "lastActivity,omitempty"}},
	} {
		typ := reflect.TypeOf(c.v)
		var got []string
		for f := range typ.Fields() {
			got = append(got, f.Tag.Get("json"))
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s has the fields %q; registry_json.go writes and reads %q: update it", typ, got, c.want)
		}
	}
}

// The index is written byte for byte as encoding/json writes it, and read
// back in its layout, not through encoding/json, as encoding/json reads it.
func TestIndexIsWrittenAndReadAsEncodingJSONDoes(t *testing.T) {
	for _, ix := range append(fixedIndexes(), randomIndexes()...) {
		want, err := json.MarshalIndent(ix, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		got := marshalIndex(ix)
		if string(got) != string(want) {
			t.Fatalf("marshalIndex(%+v) =\n%s\nwant\n%s", ix, got, want)
		}
		var decoded index
		if err := json.Unmarshal(want, &decoded); err != nil {
			t.Fatal(err)
		}
		read, ok := parseIndexLayout(append(got, '\n'))
		if !ok {
			t.Fatalf("the layout of %s is not read as such", got)
		}
		if !reflect.DeepEqual(read, decoded) {
			t.Fatalf("read %+v, encoding/json reads %+v", read, decoded)
		}
	}
}

// A file in another layout is read by encoding/json: what the original or
// a person wrote reads as it did, and what is not JSON is an error.
func TestIndexInAnotherLayoutIsReadByEncodingJSON(t *testing.T) {
	canonical := string(marshalIndex(oneSession)) + "\n"
	for name, data := range map[string]string{
		"compact, as the original writes it": `{"version":"1.0","sessions":[{"sessionId":"a","tmuxSession":"mas-a","status":"active","createdAt":"t","workingDir":"/w"}],"lastUpdated":"t"}`,
		"a field it does not know":           strings.Replace(canonical, `"status"`, `"note": "x",`+"\n      "+`"status"`, 1),
		"a key in other case":                strings.Replace(canonical, `"sessionId"`, `"SessionID"`, 1),
		"a field twice":                      strings.Replace(canonical, `"version": "1.0"`, `"version": "0.9", "version": "1.0"`, 1),
		"fields in another order":            `{"lastUpdated": "t", "sessions": [], "version": "1.0"}`,
		"CRLF line ends":                     strings.ReplaceAll(canonical, "\n", "\r\n"),
		"no final newline":                   strings.TrimSuffix(canonical, "\n"),
		"spaces after it":                    canonical + "  \n\t",
	} {
		t.Run(name, func(t *testing.T) {
			var want index
			if err := json.Unmarshal([]byte(data), &want); err != nil {
				t.Fatal(err)
			}
			got, err := unmarshalIndex([]byte(data))
			if err != nil || !reflect.DeepEqual(got, want) {
				t.Fatalf("read %+v (%v), want %+v", got, err, want)
			}
		})
	}
	for name, data := range map[string]string{
		"cut short":           canonical[:len(canonical)/2],
		"something after it":  canonical + "x",
		"a raw control byte":  strings.Replace(canonical, "mas-0e3c3a52", "mas-\x01", 1),
		"an escape cut short": strings.Replace(canonical, "mas-0e3c3a52", `mas-\u12`, 1),
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := unmarshalIndex([]byte(data)); err == nil {
				t.Fatalf("%q read without an error", data)
			}
		})
	}
}

// Whatever the bytes, the index read is the one encoding/json reads, and
// an error where it has one.
func FuzzUnmarshalIndex(f *testing.F) {
	for _, ix := range append(fixedIndexes(), randomIndexes()[:20]...) {
		f.Add(append(marshalIndex(ix), '\n'))
	}
	f.Add([]byte(`{"version":"1.0","sessions":null,"lastUpdated":""}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var want index
		werr := json.Unmarshal(data, &want)
		got, err := unmarshalIndex(data)
		if (err != nil) != (werr != nil) {
			t.Fatalf("error %v, encoding/json's %v", err, werr)
		}
		if err == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("read %+v, encoding/json reads %+v", got, want)
		}
	})
}

// fullRecord is what updateIndex makes of data when it reads it whole: the
// index decoded, e recorded, stamped lastUpdated, written again.
func fullRecord(t *testing.T, data []byte, e indexEntry, lastUpdated string) []byte {
	t.Helper()
	ix, err := indexFile{data: data}.decode()
	if err != nil {
		t.Fatalf("editIndexLayout accepted an index that does not decode: %v\n%s", err, data)
	}
	ix.Sessions = recorded(ix.Sessions, e)
	ix.LastUpdated = lastUpdated
	return marshalIndex(ix)
}

// An index mas wrote is changed in place, the other entries copied, into
// what reading it whole and writing it again makes: a session added, its
// status and last activity changed, or its entry taken out.
func TestIndexIsEditedInPlaceAsWhole(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 28))
	edited := 0
	for _, ix := range slices.Concat(fixedIndexes(), randomIndexes(), randomIndexesOf(plainStrings)) {
		data := marshalIndex(ix)
		var ids []string
		for _, e := range ix.Sessions {
			ids = append(ids, e.SessionID)
		}
		for range 4 {
			e := indexEntry{SessionID: "7f3c3a52-8c1d-4d5e-9f00-1a2b3c4d5e6f", TmuxSession: "mas-7f3c3a52", CreatedAt: "2026-11-28T11:00:00Z", WorkingDir: "/r/s/7f3c"}
			if len(ids) > 0 && r.IntN(3) > 0 {
				e.SessionID = ids[r.IntN(len(ids))]
			}
			e.Status = []Status{"", Creating, Active, Stopped}[r.IntN(4)]
			if r.IntN(2) == 0 {
				e.LastActivity = "2026-11-28T11:30:00Z"
			}
			pieces, ok := editIndexLayout(data, e, "2026-11-28T12:00:00Z")
			got := bytes.Join(pieces, nil)
			if !ok {
				// An index mas wrote, read and written again, is the
				// same bytes (unless a string was not UTF-8: its \ufffd
				// reads as U+FFFD, written as it is): that one must be
				// edited in place.
				if again, err := (indexFile{data: data}).decode(); err == nil && bytes.Equal(marshalIndex(again), data) {
					t.Fatalf("an index mas wrote is not edited in place:\n%s", data)
				}
				continue
			}
			edited++
			if want := fullRecord(t, data, e, "2026-11-28T12:00:00Z"); string(got) != string(want) {
				t.Fatalf("recording %+v in place gives\n%s\nwant\n%s\nfrom\n%s", e, got, want, data)
			}
		}
	}
	if edited < 2000 {
		t.Fatalf("only %d edits in place were checked", edited)
	}
}

// An index in its layout but with a string mas writes otherwise (an
// escape where mas writes the character, a character mas escapes) is read
// whole, not edited in place.
func TestIndexWrittenOtherwiseIsNotEditedInPlace(t *testing.T) {
	canonical := string(marshalIndex(oneSession))
	e := indexEntry{SessionID: "7f3c3a52-8c1d-4d5e-9f00-1a2b3c4d5e6f", Status: Stopped}
	for name, data := range map[string]string{
		"an escape mas does not write":          strings.Replace(canonical, "mas-0e3c3a52", `mas-\u0030e3c3a52`, 1),
		"a < mas would escape":                  strings.Replace(canonical, "/root/", "/<root>/", 1),
		"U+2028 written as it is":               strings.Replace(canonical, "/root/", "/\u2028/", 1),
		"bytes that are not UTF-8":              strings.Replace(canonical, "/root/", "/\xff/", 1),
		"an empty lastActivity":                 strings.Replace(canonical, "\n    }", ",\n      \"lastActivity\": \"\"\n    }", 1),
		"cut short after an entry's first line": canonical[:strings.Index(canonical, `"sessionId": `)+len(`"sessionId": `)],
	} {
		// No room after the data: a read past its end would panic.
		if _, ok := editIndexLayout([]byte(data)[:len(data):len(data)], e, "2026-11-28T12:00:00Z"); ok {
			t.Errorf("%s: edited in place", name)
		}
	}
}

// Whatever the bytes, an index edited in place is the one read whole and
// written again.
func FuzzEditIndex(f *testing.F) {
	for _, ix := range append(fixedIndexes()[:3], randomIndexes()[:10]...) {
		f.Add(marshalIndex(ix), "0e3c3a52-8c1d-4d5e-9f00-1a2b3c4d5e6f", "active", "")
	}
	f.Add(marshalIndex(oneSession), oneSession.Sessions[0].SessionID, "", "2026-11-28T11:30:00Z")
	f.Add(marshalIndex(oneSession), oneSession.Sessions[0].SessionID, "stopped", "2026-11-28T11:30:00Z")
	f.Add([]byte(strings.Replace(string(marshalIndex(oneSession)), "\n    }", ",\n      \"lastActivity\": \"\"\n    }", 1)), "b", "active", "")
	f.Fuzz(func(t *testing.T, data []byte, id, status, activity string) {
		e := indexEntry{SessionID: id, TmuxSession: "mas-x", Status: Status(status), CreatedAt: "c", WorkingDir: "/w", LastActivity: activity}
		pieces, ok := editIndexLayout(data, e, "2026-11-28T12:00:00Z")
		if !ok {
			return
		}
		got := bytes.Join(pieces, nil)
		if want := fullRecord(t, data, e, "2026-11-28T12:00:00Z"); string(got) != string(want) {
			t.Fatalf("recording %+v in place gives\n%q\nwant\n%q", e, got, want)
		}
	})
}
