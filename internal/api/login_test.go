package api

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"mas/internal/report"
)

var loginLine = regexp.MustCompile(`(?m)^\[INFO\] web page login URL \(one use\): (http://127\.0\.0\.1:8765/login\?code=([0-9a-f]{32}))$`)

// get sends a GET for target with header to h.
func get(h http.Handler, target string, header ...string) *httptest.ResponseRecorder {
	return send(h, "GET", target, header...)
}

// send sends a request without a body for target (a path is on addr) with
// header, name and value pairs, to h.
func send(h http.Handler, method, target string, header ...string) *httptest.ResponseRecorder {
	if strings.HasPrefix(target, "/") {
		target = "http://" + addr + target
	}
	req := httptest.NewRequest(method, target, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func TestLoginURL(t *testing.T) {
	var log bytes.Buffer
	h := New(&fake{}, Options{Token: "s3cret", Addr: addr, Log: report.New(&log, false, false)})
	m := loginLine.FindAllStringSubmatch(log.String(), -1)
	if len(m) != 1 || m[0][1] != h.LoginURL() {
		t.Fatalf("New printed %q; LoginURL %q", log.String(), h.LoginURL())
	}
	first := m[0][1]

	rec := get(h, first, "Sec-Fetch-Site", "none")
	if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/" {
		t.Fatalf("login: %d to %q: %s", rec.Code, rec.Header().Get("Location"), rec.Body)
	}
	cookies := rec.Result().Cookies()
	if len(cookies) != 1 {
		t.Fatalf("cookies %v", cookies)
	}
	c := cookies[0]
	if c.Name != "mas_8765" || !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Path != "/" || len(c.Value) != 64 || strings.Contains(c.Value, "s3cret") {
		t.Errorf("cookie %q: want mas_8765, HttpOnly, SameSite=Strict, Path=/, a 256-bit secret of its own", rec.Header().Get("Set-Cookie"))
	}
	// The next URL is printed, and differs.
	m = loginLine.FindAllStringSubmatch(log.String(), -1)
	if len(m) != 2 || m[1][1] == first || m[1][1] != h.LoginURL() {
		t.Errorf("after a login the log says %q", log.String())
	}

	cookie := c.Name + "=" + c.Value
	for _, tt := range []struct {
		why         string
		method, url string
		header      []string
		body        string
		status      int
	}{
		{"the cookie reads", "GET", "/sessions", []string{"Cookie", cookie}, "", 200},
		{"the cookie acts", "POST", "/message", []string{"Cookie", cookie, "Origin", "http://" + addr, "Content-Type", "application/json"}, `{"target": "00", "message": "hi"}`, 200},
		{"the bearer still works", "GET", "/sessions", []string{"Authorization", "Bearer s3cret"}, "", 200},
		{"the cookie from another origin", "POST", "/message", []string{"Cookie", cookie, "Origin", "http://127.0.0.1:9999", "Content-Type", "application/json"}, `{"target": "00", "message": "hi"}`, 403},
		{"the cookie with a form body", "POST", "/message", []string{"Cookie", cookie, "Content-Type", "text/plain"}, `{"target": "00", "message": "hi"}`, 415},
		{"the cookie under a rebound name", "GET", "/sessions", []string{"Cookie", cookie, "Host", "evil.example:8765"}, "", 421},
		{"a wrong cookie", "GET", "/sessions", []string{"Cookie", c.Name + "=" + strings.Repeat("0", 64)}, "", 401},
		{"the token as a cookie", "GET", "/sessions", []string{"Cookie", c.Name + "=s3cret"}, "", 401},
		{"the cookie of another port's server", "GET", "/sessions", []string{"Cookie", "mas_9999=" + c.Value}, "", 401},
		{"nothing", "GET", "/sessions", nil, "", 401},
		{"the page needs nothing", "GET", "/", nil, "", 200},
		{"a spent code", "GET", strings.TrimPrefix(first, "http://"+addr), nil, "", 403},
		{"a wrong code", "GET", "/login?code=" + strings.Repeat("0", 32), nil, "", 403},
		{"no code", "GET", "/login", nil, "", 403},
		{"the token as a code", "GET", "/login?code=s3cret", nil, "", 403},
		{"a login posted", "POST", "/login?code=" + url.QueryEscape(m[1][2]), nil, "", 401},
	} {
		req := httptest.NewRequest(tt.method, "http://"+addr+tt.url, strings.NewReader(tt.body))
		for i := 0; i+1 < len(tt.header); i += 2 {
			if tt.header[i] == "Host" {
				req.Host = tt.header[i+1]
			} else {
				req.Header.Set(tt.header[i], tt.header[i+1])
			}
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != tt.status {
			t.Errorf("%s: %d, want %d: %s", tt.why, rec.Code, tt.status, rec.Body)
		}
		if tt.status >= 400 && rec.Header().Get("Set-Cookie") != "" {
			t.Errorf("%s: a refusal set a cookie", tt.why)
		}
		if tt.status == 403 && tt.method == "GET" && strings.HasPrefix(tt.url, "/login") && !strings.Contains(rec.Body.String(), "login URL that mas serve printed on stderr") {
			t.Errorf("%s: the refusal does not say how to get a new URL: %s", tt.why, rec.Body)
		}
		if tt.status == 401 && !strings.Contains(rec.Body.String(), "open the login URL") {
			t.Errorf("%s: the 401 does not say how to log in: %s", tt.why, rec.Body)
		}
	}
	// The code printed after the first login is still good: failed
	// attempts do not spend it.
	if rec := get(h, h.LoginURL()); rec.Code != http.StatusSeeOther {
		t.Errorf("the current code after failed attempts: %d", rec.Code)
	}
}

// TestOldLoginsAreForgotten: only the last maxLogins cookies are good.
// A login URL with &session= opens the page on that session; whatever
// the value, the redirect stays on the page's own path.
func TestLoginOpensTheSessionNamed(t *testing.T) {
	h := New(&fake{}, Options{Token: "s3cret", Addr: addr})
	for _, tt := range []struct{ session, want string }{
		{"1612c47f", "/?session=1612c47f"},
		{"//evil.example/x", "/?session=%2F%2Fevil.example%2Fx"},
		{"a&b=c#d", "/?session=a%26b%3Dc%23d"},
	} {
		rec := get(h, h.LoginURL()+"&session="+url.QueryEscape(tt.session), "Sec-Fetch-Site", "none")
		if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != tt.want {
			t.Errorf("login with session %q: %d to %q, want %q", tt.session, rec.Code, rec.Header().Get("Location"), tt.want)
		}
	}
}

func TestOldLoginsAreForgotten(t *testing.T) {
	h := New(&fake{}, Options{Token: "s3cret", Addr: addr})
	var cookies []string
	for range maxLogins + 1 {
		rec := get(h, h.LoginURL())
		c := rec.Result().Cookies()[0]
		cookies = append(cookies, c.Name+"="+c.Value)
	}
	if rec := get(h, "/sessions", "Cookie", cookies[0]); rec.Code != 401 {
		t.Errorf("the oldest login still works: %d", rec.Code)
	}
	if rec := get(h, "/sessions", "Cookie", cookies[maxLogins]); rec.Code != 200 {
		t.Errorf("the newest login: %d", rec.Code)
	}
}

func TestNoLoginWithoutToken(t *testing.T) {
	var log bytes.Buffer
	h := New(&fake{}, Options{Addr: addr, Log: report.New(&log, false, false)})
	if h.LoginURL() != "" || log.Len() != 0 {
		t.Errorf("LoginURL %q, log %q", h.LoginURL(), log.String())
	}
	if rec := get(h, "/login?code=x"); rec.Code != 404 {
		t.Errorf("/login without a token: %d", rec.Code)
	}
}

func TestLoginURLNamesTheConfiguredHost(t *testing.T) {
	for _, tt := range []struct{ addr, host, want string }{
		{"127.0.0.1:8765", "", "http://127.0.0.1:8765/login?code="},
		{"127.0.0.1:8765", "localhost", "http://localhost:8765/login?code="},
		{"0.0.0.0:8765", "0.0.0.0", "http://127.0.0.1:8765/login?code="},
		{"[::]:8765", "", "http://127.0.0.1:8765/login?code="},
		{"192.168.1.5:8765", "box.lan", "http://box.lan:8765/login?code="},
		{"[::1]:8765", "::1", "http://[::1]:8765/login?code="},
	} {
		if got := New(&fake{}, Options{Token: "t", Addr: tt.addr, Host: tt.host}).LoginURL(); !strings.HasPrefix(got, tt.want) {
			t.Errorf("listening on %s, configured %q: %s, want %s…", tt.addr, tt.host, got, tt.want)
		}
	}
}
