package app

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"mas/internal/api"
	"mas/internal/remote"
	"mas/isolated"
)

// postRun is POST /runs of b with body: its status and answer.
func postRun(t *testing.T, b api.Backend, body string) (int, map[string]any) {
	t.Helper()
	return apiRequest(t, b, http.MethodPost, "/runs", body)
}

// apiRequest is method path of b's API, with body when not "": its
// status and answer.
func apiRequest(t *testing.T, b api.Backend, method, path, body string) (int, map[string]any) {
	t.Helper()
	srv := api.New(b, api.Options{Addr: "127.0.0.1:8765"})
	w := httptest.NewRecorder()
	r := httptest.NewRequest(method, "http://127.0.0.1:8765"+path, strings.NewReader(body))
	if body != "" {
		r.Header.Set("Content-Type", "application/json")
	}
	srv.ServeHTTP(w, r)
	var out map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil {
		t.Fatalf("%s %s %s: %d %s", method, path, body, w.Code, w.Body)
	}
	return w.Code, out
}

// TestRunOnAHost: POST /runs with "host" creates the session there (the
// fake ssh of fakeHost), answers NAME:<uuid>, and makes nothing here;
// an unknown host or legacy mode on a host is a bad request, a host that
// does not answer a 502 naming it; "auto" places the session where the
// fewest run as the HostList last saw them. Stop, resume and DELETE of
// NAME:<uuid> act on the host, whose refusal is a 502.
func TestRunOnAHost(t *testing.T) {
	t.Setenv(fakeHostVar, t.TempDir())
	a, _, _, _ := testApp(t, map[string]string{"MAS_SSH_COMMAND": os.Args[0]})
	for _, h := range []remote.Host{{Name: "gpu1", Destination: "gpu1"}, {Name: "lab", Destination: "down"}} {
		if err := remote.Add(a.Root(), h); err != nil {
			t.Fatal(err)
		}
	}
	b := NewBackend(a)
	for body, want := range map[string]string{
		`{"agents": {}, "host": "nope"}`:                          `no such host "nope"`,
		`{"agents": {}, "host": "gpu1", "sessionMode": "legacy"}`: "sessionMode legacy is for this machine",
		`{"agents": {"bogus": 1}, "host": "gpu1"}`:                "bogus",
	} {
		if code, out := postRun(t, b, body); code != http.StatusBadRequest || !strings.Contains(out["error"].(string), want) {
			t.Errorf("%s: %d %v, want 400 %q", body, code, out, want)
		}
	}
	code, out := postRun(t, b, `{"agents": {}, "host": "lab"}`)
	if code != http.StatusBadGateway || !strings.HasPrefix(out["error"].(string), "host lab: ssh failed: ssh: connect to host down") {
		t.Errorf("lab (down): %d %v", code, out)
	}
	code, out = postRun(t, b, `{"agents": {"agents": {"units": [{"unitId": 1, "manager": {"id": "21", "prompt": "hi"}}]}}, "host": "gpu1"}`)
	id, _ := out["sessionId"].(string)
	if code != http.StatusCreated || out["host"] != "gpu1" || !strings.HasPrefix(id, "gpu1:") || !isolated.IsID(id[5:]) || out["promptsSent"] != 1.0 {
		t.Errorf("gpu1: %d %v", code, out)
	}
	if local, _, err := a.SessionList(context.Background()); len(local) != 0 || err != nil {
		t.Errorf("made here: %+v, %v", local, err)
	}
	// Stop, resume and remove act there; a host refusing is a 502 with
	// its words; a host's id is whole; the other routes are this
	// machine's alone.
	for _, r := range []struct {
		method, path string
		code         int
		want         string
	}{
		{http.MethodDelete, "/sessions/" + id, http.StatusBadGateway, "host gpu1: session " + id[5:] + " is running; stop it first"},
		{http.MethodPost, "/sessions/" + id + "/stop", http.StatusOK, `"stopped"`},
		{http.MethodPost, "/sessions/" + id + "/resume", http.StatusOK, `"status":"active"`},
		{http.MethodPost, "/sessions/gpu1:" + id[5:13] + "/stop", http.StatusBadRequest, "by its whole id, gpu1:"},
		{http.MethodGet, "/sessions/" + id, http.StatusBadRequest, "malformed"},
		{http.MethodPost, "/sessions/" + id + "/stop", http.StatusOK, `"stopped"`},
		{http.MethodDelete, "/sessions/" + id, http.StatusOK, `"removed":true`},
		{http.MethodDelete, "/sessions/" + id, http.StatusBadGateway, "host gpu1: no session " + id[5:]},
	} {
		code, out := apiRequest(t, b, r.method, r.path, "")
		if body, _ := json.Marshal(out); code != r.code || !strings.Contains(string(body), r.want) {
			t.Errorf("%s %s: %d %s, want %d %s", r.method, r.path, code, body, r.code, r.want)
		}
	}

	// auto: nothing runs here nor on gpu1 (its session is removed), lab is
	// down: the tie goes here; then here runs one, and gpu1 is chosen.
	a.Hosts = NewHostList(a)
	a.Hosts.Refresh(context.Background())
	if code, out = postRun(t, b, `{"agents": {}, "host": "auto"}`); code != http.StatusCreated || out["host"] != nil {
		t.Errorf("auto with a tie: %d %v, want made here", code, out)
	}
	if code, out = postRun(t, b, `{"agents": {}, "host": "auto"}`); code != http.StatusCreated || out["host"] != "gpu1" {
		t.Errorf("auto, here running more: %d %v, want gpu1", code, out)
	}
}
