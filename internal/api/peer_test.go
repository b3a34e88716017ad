package api

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strings"
	"testing"
)

// The kernel names this process's user for a connection it made itself.
func TestPeerUIDOfOwnConnection(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("peer users are known on Linux only")
	}
	for _, network := range []string{"tcp4", "tcp6"} {
		addr := "127.0.0.1:0"
		if network == "tcp6" {
			addr = "[::1]:0"
		}
		ln, err := net.Listen(network, addr)
		if err != nil {
			t.Logf("%s: %v", network, err)
			continue
		}
		c, err := net.Dial(network, ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		s, err := ln.Accept()
		if err != nil {
			t.Fatal(err)
		}
		uid, known := peerUID(s.RemoteAddr().String(), s.LocalAddr().String())
		if !known || uid != os.Getuid() {
			t.Errorf("%s: peerUID = %d, %v; want %d, true", network, uid, known, os.Getuid())
		}
		c.Close()
		s.Close()
		ln.Close()
	}
	// A connection that does not exist is found nowhere.
	if uid, known := peerUID("127.0.0.1:1", "127.0.0.1:2"); !known || uid != -1 {
		t.Errorf("peerUID of no connection = %d, %v; want -1, true", uid, known)
	}
}

// Without a token, a request from another user is refused before any
// handler; with a token, the token decides.
func TestOtherUsersAreRefusedWithoutToken(t *testing.T) {
	for _, tt := range []struct {
		why    string
		token  string
		uid    int
		known  bool
		status int
	}{
		{"the user who runs the server", "", os.Getuid(), true, http.StatusOK},
		{"attack: another local user reaches 127.0.0.1 too", "", os.Getuid() + 1, true, http.StatusForbidden},
		{"a connection the tables do not hold", "", -1, true, http.StatusForbidden},
		{"a system that cannot tell relies on the token", "", 0, false, http.StatusOK},
		{"with a token, the token decides", "t0k", os.Getuid() + 1, true, http.StatusOK},
	} {
		f := &fake{}
		s := New(f, Options{Token: tt.token, Addr: "127.0.0.1:8765"})
		s.peerUIDOf = func(*http.Request) (int, bool) { return tt.uid, tt.known }
		r := httptest.NewRequest("GET", "http://127.0.0.1:8765/sessions", nil)
		if tt.token != "" {
			r.Header.Set("Authorization", "Bearer "+tt.token)
		}
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		if w.Code != tt.status {
			t.Errorf("%s: status %d, want %d: %s", tt.why, w.Code, tt.status, w.Body)
		}
		if tt.status == http.StatusForbidden && !strings.Contains(w.Body.String(), "another user of this machine") {
			t.Errorf("%s: body %s", tt.why, w.Body)
		}
	}
}

// The peer of a connection is asked once, at its first request: the
// requests a kept-alive connection carries next get the same answer (a
// refusal stays a refusal), and a new connection is asked again.
func TestPeerAskedOncePerConnection(t *testing.T) {
	asked := 0
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := New(&fake{}, Options{Addr: ln.Addr().String()})
	uid := os.Getuid()
	s.peerUIDOf = func(*http.Request) (int, bool) { asked++; return uid, true }
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- Serve(ctx, ln, s, Limits{}) }()
	defer func() { stop(); <-served }()
	get := func(c *http.Client) int {
		t.Helper()
		resp, err := c.Get("http://" + ln.Addr().String() + "/sessions")
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body) // so that the connection is kept
		resp.Body.Close()
		return resp.StatusCode
	}
	kept := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
	for range 3 {
		if code := get(kept); code != http.StatusOK {
			t.Fatalf("status %d", code)
		}
	}
	if asked != 1 {
		t.Errorf("asked %d times over one connection, want once", asked)
	}
	uid = os.Getuid() + 1 // another user's connection, new
	other := &http.Client{Transport: &http.Transport{}}
	for range 2 {
		if code := get(other); code != http.StatusForbidden {
			t.Errorf("another user's connection: status %d, want 403", code)
		}
	}
	if asked != 2 {
		t.Errorf("asked %d times over two connections, want twice", asked)
	}
}
