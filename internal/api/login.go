package api

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
)

// A browser cannot add the bearer header to the page's requests, so with
// a token the page gets in by a one-time login URL that serve prints: the
// code in it buys a cookie holding a random secret of its own (never the
// token), HttpOnly and SameSite=Strict. A spent code is replaced by a new
// one, printed the same way.

// maxLogins caps the cookie secrets kept; the oldest is forgotten first.
const maxLogins = 16

type login struct {
	mu      sync.Mutex
	base    string // http://host:port
	cookie  string // the cookie's name: cookies do not tell ports apart
	code    string
	secrets []string
	log     func(url string)
}

func newLogin(o Options) *login {
	host, port, _ := net.SplitHostPort(o.Addr)
	if o.Host != "" {
		host = o.Host
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	l := &login{base: "http://" + net.JoinHostPort(strings.Trim(host, "[]"), port), cookie: "mas_" + port, log: func(string) {}}
	if o.Log != nil {
		l.log = func(url string) { o.Log.Infof("web page login URL (one use): %s", url) }
	}
	l.code = random()
	l.log(l.base + "/login?code=" + l.code)
	return l
}

// url is the current login URL.
func (l *login) url() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.base + "/login?code=" + l.code
}

func random() string {
	b := make([]byte, 16)
	rand.Read(b) // never fails (crypto/rand)
	return hex.EncodeToString(b)
}

// serve answers GET /login?code=…[&session=…]: the right code, once, sets
// the cookie and goes to the page, watching that session when one is
// named. The page's address is built here, never taken from the request.
func (l *login) serve(w http.ResponseWriter, r *http.Request) {
	l.mu.Lock()
	ok := subtle.ConstantTimeCompare([]byte(r.URL.Query().Get("code")), []byte(l.code)) == 1
	var secret, next string
	if ok {
		secret = random() + random()
		l.secrets = append(l.secrets, secret)
		if len(l.secrets) > maxLogins {
			l.secrets = l.secrets[1:]
		}
		l.code = random()
		next = l.base + "/login?code=" + l.code
	}
	l.mu.Unlock()
	if !ok {
		writeJSON(w, http.StatusForbidden, errorBody{"login code is wrong or already used: open the last login URL that mas serve printed on stderr (for the server that start launched: .mas_http.log in the mas root)", http.StatusForbidden})
		return
	}
	l.log(next)
	http.SetCookie(w, &http.Cookie{Name: l.cookie, Value: secret, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
	page := "/"
	if session := r.URL.Query().Get("session"); session != "" {
		page += "?" + url.Values{"session": {session}}.Encode()
	}
	http.Redirect(w, r, page, http.StatusSeeOther)
}

// has tells whether r carries the cookie of a login.
func (l *login) has(r *http.Request) bool {
	c, err := r.Cookie(l.cookie)
	if err != nil {
		return false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	found := 0
	for _, s := range l.secrets {
		found |= subtle.ConstantTimeCompare([]byte(c.Value), []byte(s))
	}
	return found == 1
}
