package api

import (
	"mime"
	"net"
	"net/http"
	"strings"
)

// The checks every request passes before it reaches a handler: a browser
// page of another origin, or of a DNS name rebound to this machine, must
// be able neither to act nor to read, and no response can be framed.

// origin knows which Host values name this server.
type origin struct {
	port       string
	listenIP   net.IP // nil when the address is not an IP
	unspecific bool   // listening on 0.0.0.0 or ::
	configured string // the host of --addr or MAS_HTTP_HOST, lower case
	token      bool
}

func newOrigin(o Options) origin {
	var g origin
	host, port, err := net.SplitHostPort(o.Addr)
	if err != nil {
		return g // no port: no Host matches, every request is refused
	}
	g.port = port
	g.listenIP = net.ParseIP(host)
	g.unspecific = g.listenIP != nil && g.listenIP.IsUnspecified()
	g.configured = strings.ToLower(strings.Trim(o.Host, "[]"))
	g.token = o.Token != ""
	return g
}

// allows tells whether a Host header names this server: 127.0.0.1, [::1]
// or localhost, or the IP it listens on, with its port; with a token,
// also the configured host and, when listening on every address, any IP
// literal (a rebinding attack needs a name, and an IP is not one).
func (g origin) allows(hostport string) bool {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		host, port = hostport, "80" // the default port is not written
	}
	if g.port == "" || port != g.port {
		return false
	}
	host = strings.ToLower(host)
	ip := net.ParseIP(host)
	switch {
	case host == "localhost", ip != nil && (ip.Equal(net.IPv4(127, 0, 0, 1)) || ip.Equal(net.IPv6loopback)):
		return true
	case ip != nil && g.listenIP != nil && ip.Equal(g.listenIP) && !g.unspecific:
		return true
	case g.token && g.configured != "" && host == g.configured:
		return true
	case g.token && g.unspecific && ip != nil:
		return true
	}
	return false
}

// refusal is the status and reason with which a request is refused;
// status 0 lets it through.
func (g origin) refusal(r *http.Request) (int, string) {
	if !g.allows(r.Host) {
		return http.StatusMisdirectedRequest, "host " + quote(r.Host) + " does not name this server: use http://127.0.0.1:" + g.port
	}
	if o, ok := r.Header["Origin"]; ok && (len(o) != 1 || o[0] != "http://"+r.Host) {
		return http.StatusForbidden, "cross-origin request refused (Origin " + quote(strings.Join(o, ", ")) + ")"
	}
	switch site := r.Header.Get("Sec-Fetch-Site"); site {
	case "", "same-origin", "none":
	default:
		return http.StatusForbidden, "cross-site request refused (Sec-Fetch-Site " + quote(site) + ")"
	}
	if hasBody(r) && !isJSON(r.Header.Get("Content-Type")) {
		return http.StatusUnsupportedMediaType, "request body must be Content-Type: application/json, not " + quote(r.Header.Get("Content-Type"))
	}
	return 0, ""
}

func hasBody(r *http.Request) bool {
	return r.ContentLength != 0 || len(r.TransferEncoding) > 0
}

// isJSON accepts application/json, with at most a UTF-8 charset: the one
// type a page of another origin cannot send without a CORS preflight,
// which this server never grants.
func isJSON(ct string) bool {
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil || mt != "application/json" {
		return false
	}
	for k, v := range params {
		if k != "charset" || !strings.EqualFold(v, "utf-8") {
			return false
		}
	}
	return true
}

func quote(s string) string {
	if len(s) > 100 {
		s = s[:100] + "…"
	}
	return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"`
}

// Frame protection and no sniffing on every response; the page loosens
// default-src to its own files.
const (
	apiPolicy  = "default-src 'none'; frame-ancestors 'none'"
	pagePolicy = "default-src 'self'; frame-ancestors 'none'"
)

func secureHeaders(h http.Header) {
	h.Set("Content-Security-Policy", apiPolicy)
	h.Set("X-Frame-Options", "DENY")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
}
