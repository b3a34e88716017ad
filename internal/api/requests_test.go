package api

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"mas/internal/report"
)

// TestRequestLog: one line per request, refused ones too, with the
// client, method, path, status and duration, and never the token, a
// login code or the cookie.
func TestRequestLog(t *testing.T) {
	const token = "s3cret-token"
	var logins, requests bytes.Buffer
	h := New(&fake{}, Options{Addr: addr, Token: token, Log: report.New(&logins, false, false), Requests: report.New(&requests, false, false)})
	code := loginLine.FindStringSubmatch(logins.String())[2]
	send(h, "GET", "/health", "Authorization", "Bearer "+token)
	login := send(h, "GET", "/login?code="+code)
	cookie := login.Result().Cookies()[0]
	send(h, "GET", "/sessions", "Cookie", cookie.Name+"="+cookie.Value)
	send(h, "DELETE", "/sessions/3f0c2a9e?force=true", "Authorization", "Bearer "+token)
	send(h, "POST", "/sessions/3f0c2a9e/stop", "Origin", "http://evil.example")
	send(h, "GET", "/sessions", "Authorization", "Bearer wrong")
	send(h, "GET", "/sessions/%1b%5b2J")

	want := []string{
		`GET /health 200`,
		`GET /login 303`,
		`GET /sessions 200`,
		`DELETE /sessions/3f0c2a9e 200`,
		`POST /sessions/3f0c2a9e/stop 403`,
		`GET /sessions 401`,
		`GET /sessions/%1b%5b2J 401`,
	}
	line := regexp.MustCompile(`^\[INFO\] \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ 192\.0\.2\.1 (.+) \d+\.\dms$`)
	lines := strings.Split(strings.TrimSuffix(requests.String(), "\n"), "\n")
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), requests.String())
	}
	for i, l := range lines {
		m := line.FindStringSubmatch(l)
		if m == nil || m[1] != want[i] {
			t.Errorf("line %d: %q, want %q in the form [INFO] <time> <client> <method> <path> <status> <ms>ms", i+1, l, want[i])
		}
	}
	for _, secret := range []string{token, code, cookie.Value, "wrong", "force", "?"} {
		if strings.Contains(requests.String(), secret) {
			t.Errorf("the request log holds %q:\n%s", secret, requests.String())
		}
	}
}
