// Package remote reaches mas on other hosts over OpenSSH: the hosts a root
// knows (hosts.json), the ssh command line (MAS_SSH_COMMAND) and one
// request to a host's mas, sent on stdin, whose reply is read as JSON with
// a cap and a deadline. Nothing about SSH itself is done here: keys,
// agents, known hosts and jumps stay the user's ssh configuration.
package remote

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"

	"mas/internal/safefile"
)

// FileName is the file of a root that lists its hosts.
const FileName = "hosts.json"

// maxFile caps the read of hosts.json, a file a user may edit by hand.
const maxFile = 1 << 20

// MaxAsked is how many hosts are asked at once: a hosts.json of
// thousands of hosts starts no more ssh processes than that at a time.
const MaxAsked = 32

// Host is a machine that mas reaches over ssh, as host add made it.
type Host struct {
	Name string `json:"name"`
	// Destination is what ssh is given to reach it: user@host, an alias
	// of the user's ssh configuration or ssh://user@host:port.
	Destination string `json:"destination"`
	// Root is the root of the host's mas (its MAS_ROOT); empty: the one
	// it finds itself.
	Root string `json:"root,omitempty"`
}

// file is hosts.json.
type file struct {
	Hosts []Host `json:"hosts"`
}

// Errors callers branch on.
var (
	ErrNoHost = errors.New("no such host")
	ErrExists = errors.New("a host of that name exists")
)

// Reserved names stand for something else where a host name goes:
// "auto" lets mas choose (session create --host auto), "local" is this
// machine.
var Reserved = []string{"auto", "local"}

// The forms below are compiled on first use: most commands never check
// a host, and every command pays what its package's init does.
var validName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$`) })

// CheckName refuses a host name that is not 1 to 32 letters, digits, '_',
// '.' or '-' (not first), or that is reserved: it is typed before the ':'
// of NAME:<id> and shown in columns.
func CheckName(name string) error {
	switch {
	case !validName().MatchString(name):
		return fmt.Errorf("host name %q: use 1 to 32 letters, digits, '_', '.' or '-', beginning with a letter or digit", name)
	case slices.Contains(Reserved, name):
		return fmt.Errorf("host name %q is reserved: choose another", name)
	}
	return nil
}

// CheckDestination refuses a destination that ssh would read as an
// option (it begins with '-') or that holds a space or a control
// character, which no host name, user or alias has.
func CheckDestination(dest string) error {
	switch {
	case dest == "":
		return errors.New("the destination is empty")
	case strings.HasPrefix(dest, "-"):
		return fmt.Errorf("destination %q begins with '-', which ssh would take for an option", dest)
	case len(dest) > 255:
		return errors.New("the destination is longer than 255 bytes")
	case strings.ContainsFunc(dest, func(r rune) bool { return unicode.IsSpace(r) || !unicode.IsPrint(r) }):
		return fmt.Errorf("destination %q holds a space or a control character", dest)
	}
	return nil
}

var validRoot = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^/[A-Za-z0-9/._+,@%=-]*$`) })

// CheckRoot refuses a root that is not an absolute path of letters,
// digits and /._+,@%=- alone: attach names it on the remote command line,
// which the host's shell reads, so it holds nothing that shell would
// expand.
func CheckRoot(root string) error {
	if root != "" && !validRoot().MatchString(root) {
		return fmt.Errorf("root %q: give an absolute path of letters, digits and /._+,@%%=- only", root)
	}
	return nil
}

// Check is CheckName, CheckDestination and CheckRoot.
func (h Host) Check() error {
	return errors.Join(CheckName(h.Name), CheckDestination(h.Destination), CheckRoot(h.Root))
}

// path is hosts.json of root.
func path(root string) string { return filepath.Join(root, FileName) }

// Load reads the hosts of root, sorted by name: none when it has no
// hosts.json. A link or special file there, a file over 1 MiB, bad JSON
// or a host that add would refuse is an error naming the file.
func Load(root string) ([]Host, error) {
	data, err := safefile.ReadFile(path(root), maxFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var f file
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", path(root), err)
	}
	for i, h := range f.Hosts {
		if err := h.Check(); err != nil {
			return nil, fmt.Errorf("%s: host %d: %w", path(root), i+1, err)
		}
		if slices.ContainsFunc(f.Hosts[:i], func(o Host) bool { return o.Name == h.Name }) {
			return nil, fmt.Errorf("%s: host %q is listed twice", path(root), h.Name)
		}
	}
	slices.SortFunc(f.Hosts, func(a, b Host) int { return strings.Compare(a.Name, b.Name) })
	return f.Hosts, nil
}

// Lookup is the host of root named name, or ErrNoHost.
func Lookup(root, name string) (Host, error) {
	hosts, err := Load(root)
	if err != nil {
		return Host{}, err
	}
	for _, h := range hosts {
		if h.Name == name {
			return h, nil
		}
	}
	return Host{}, fmt.Errorf("%w %q: mas host list lists them, mas host add adds one", ErrNoHost, name)
}

// Add adds h to the hosts of root, refusing a name already there.
func Add(root string, h Host) error {
	if err := h.Check(); err != nil {
		return err
	}
	hosts, err := Load(root)
	if err != nil {
		return err
	}
	if slices.ContainsFunc(hosts, func(o Host) bool { return o.Name == h.Name }) {
		return fmt.Errorf("%w: %s (mas host rm %s first)", ErrExists, h.Name, h.Name)
	}
	return save(root, append(hosts, h))
}

// Remove removes the host named name from the hosts of root.
func Remove(root, name string) error {
	hosts, err := Load(root)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(hosts, func(h Host) bool { return h.Name == name })
	if i < 0 {
		return fmt.Errorf("%w %q", ErrNoHost, name)
	}
	return save(root, slices.Delete(hosts, i, i+1))
}

// save writes hosts to hosts.json of root, sorted, atomically.
func save(root string, hosts []Host) error {
	slices.SortFunc(hosts, func(a, b Host) int { return strings.Compare(a.Name, b.Name) })
	if hosts == nil {
		hosts = []Host{}
	}
	data, err := json.MarshalIndent(file{Hosts: hosts}, "", "  ")
	if err != nil {
		return err
	}
	return safefile.WriteAtomic(path(root), append(data, '\n'), 0o644)
}
