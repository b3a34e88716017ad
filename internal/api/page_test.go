package api

import (
	"encoding/json"
	"net/http/httptest"
	"regexp"
	"slices"
	"testing"

	"mas/internal/roster"
)

// TestPageCarriesTheTeam: the page's script reads the team from the page,
// as roster has it, and keeps no copy of its own.
func TestPageCarriesTheTeam(t *testing.T) {
	h := handler(&fake{}, "")
	for _, path := range []string{"/", "/ui/"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, request("GET", path, ""))
		if rec.Code != 200 || rec.Header().Get("Content-Type") != "text/html; charset=utf-8" || rec.Header().Get("Content-Security-Policy") != pagePolicy {
			t.Fatalf("GET %s: %d %v", path, rec.Code, rec.Header())
		}
		m := regexp.MustCompile(`<script type="application/json" id="team">([^<]*)</script>`).FindStringSubmatch(rec.Body.String())
		if m == nil {
			t.Fatalf("GET %s: no team in the page: %s", path, rec.Body.String())
		}
		var team []struct {
			Name   string
			Agents []roster.Agent
		}
		if err := json.Unmarshal([]byte(m[1]), &team); err != nil {
			t.Fatalf("GET %s: the team is not JSON: %v", path, err)
		}
		var ids []string
		for i, w := range team {
			if w.Name != roster.Windows()[i].Name {
				t.Errorf("window %d is %q, want %q", i, w.Name, roster.Windows()[i].Name)
			}
			for _, a := range w.Agents {
				if want, _ := roster.Lookup(a.ID); a != want {
					t.Errorf("agent %+v, want %+v", a, want)
				}
				ids = append(ids, a.ID)
			}
		}
		if !slices.Equal(ids, roster.IDs()) {
			t.Errorf("GET %s: the team's agents are %v, want %v", path, ids, roster.IDs())
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, request("HEAD", "/", ""))
	if rec.Code != 200 || rec.Body.Len() != 0 {
		t.Errorf("HEAD /: %d with %d bytes", rec.Code, rec.Body.Len())
	}
}
