package api

import "errors"

// The hosts of a root (docs/hosts.md): GET /sessions lists their
// sessions, as a background refresher last saw them, beside this
// machine's; POST /runs with "host" creates a session on one.

// ErrHost is a host that could not be reached or answered wrong: 502.
var ErrHost = errors.New("host failed")

// Host is one host of the root as GET /sessions shows it, for a page to
// say that a host is down: whether its last try got an answer, why not,
// and when its last answer came (RFC 3339; absent: none yet).
type Host struct {
	Name      string `json:"name"`
	Answers   bool   `json:"answers"`
	Error     string `json:"error,omitempty"`
	FetchedAt string `json:"fetchedAt,omitempty"`
}

// HostLister is what a Backend whose root has hosts adds: their sessions
// (each with Host, its SessionID the NAME:<uuid> the command line takes)
// and each host's state, from memory. No hosts: both nil, and GET
// /sessions is what it is without hosts.
type HostLister interface {
	HostSessions() ([]Session, []Host)
}

// withHosts is the body of GET /sessions when the root has hosts: list,
// the sessions of this machine, then those of the hosts b knows, and a
// "hosts" array; ok is false when the root has none (the body is then
// the list alone, which sessionsJSON writes).
func withHosts(b Backend, list []Session) (body map[string]any, ok bool) {
	hl, ok := b.(HostLister)
	if !ok {
		return nil, false
	}
	theirs, hosts := hl.HostSessions()
	if hosts == nil {
		return nil, false
	}
	all := make([]Session, 0, len(list)+len(theirs))
	list = append(append(all, list...), theirs...)
	return map[string]any{"sessions": list, "total": len(list), "hosts": hosts}, true
}
