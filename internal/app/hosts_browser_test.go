package app

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"mas/internal/api"
	"mas/internal/remote"
	"mas/isolated"
)

// fakeHostVar, set to a directory, makes the test binary a fake ssh
// (MAS_SSH_COMMAND) whose hosts keep their sessions there: host "down"
// fails as ssh does when a host is unreachable; any other answers mas's
// requests (session list, create, show, stop, resume, rm) as its mas
// would, through the protocol of mas __remote.
const fakeHostVar = "MAS_TEST_FAKE_HOST"

// fakeHost runs one ssh call: args are "-- DEST mas __remote".
func fakeHost(dir string, args []string) int {
	if len(args) != 4 || args[0] != "--" || args[2] != "mas" || args[3] != remote.Command {
		fmt.Fprintf(os.Stderr, "fake ssh: unexpected command line %q\n", args)
		return 2
	}
	dest := args[1]
	if dest == "down" {
		fmt.Fprintln(os.Stderr, "ssh: connect to host down port 22: Connection refused")
		return 255
	}
	var req remote.Request
	if err := json.NewDecoder(os.Stdin).Decode(&req); err != nil {
		return 3
	}
	var sessions []Session
	if data, err := os.ReadFile(filepath.Join(dir, dest+".json")); err == nil {
		json.Unmarshal(data, &sessions)
	}
	out, failed := fakeRequest(dir, dest, req, sessions)
	if failed != "" {
		json.NewEncoder(os.Stdout).Encode(remote.Reply{Protocol: remote.Protocol, Version: "test", Exit: 1, Stderr: "mas: " + failed + "\n"})
		return 0
	}
	stdout, _ := json.Marshal(out)
	json.NewEncoder(os.Stdout).Encode(remote.Reply{Protocol: remote.Protocol, Version: "test", Stdout: string(stdout)})
	return 0
}

// fakeRequest does what req asks of host dest, whose sessions are
// sessions, keeping them in dir: what its mas would print with --json,
// or why it fails.
func fakeRequest(dir, dest string, req remote.Request, sessions []Session) (any, string) {
	state := filepath.Join(dir, dest+".json")
	save := func() {
		data, _ := json.Marshal(sessions)
		os.WriteFile(state+".new", data, 0o644)
		os.Rename(state+".new", state)
	}
	args := strings.Join(req.Args, " ")
	if args == "session list --json" {
		return map[string]any{"sessions": sessions}, ""
	}
	if args == "session create --no-attach --json" {
		s := hostRow(fmt.Sprintf("%08x-0000-4000-8000-%012x", len(sessions)+0xc0ffee, len(sessions)), "active")
		os.WriteFile(filepath.Join(dir, dest+"-"+s.SessionID+".config"), []byte(req.Config), 0o644)
		sessions = append(sessions, s)
		save()
		return s, ""
	}
	verb, id, _ := strings.Cut(args, " -- ")
	i := slices.IndexFunc(sessions, func(s Session) bool { return s.SessionID == id })
	if i < 0 {
		return nil, "no session " + id
	}
	switch verb {
	case "session show --json":
		return sessions[i], ""
	case "session stop":
		sessions[i].Status = "stopped"
	case "session resume":
		sessions[i].Status = "active"
	case "session rm":
		if sessions[i].Status == "active" {
			return nil, "session " + id + " is running; stop it first, or use --force"
		}
		sessions = slices.Delete(sessions, i, i+1)
	default:
		return nil, "fake host: no such request " + args
	}
	save()
	return nil, ""
}

// TestWebPageShowsAndCreatesOnAHost: with two hosts, one that answers and
// one that is down, the page lists the host's session with its host, says
// the other is down, and creates a session on the host chosen in the
// form, its prompts sent to the host; nothing is made on this machine.
// Its row stops, resumes and removes it there.
// Leaves web-ui-hosts.png.
func TestWebPageShowsAndCreatesOnAHost(t *testing.T) {
	f := newBrowserFixture(t)
	hostsDir := t.TempDir()
	t.Setenv(fakeHostVar, hostsDir)
	getenv := f.a.Getenv
	f.a.Getenv = func(k string) string {
		if k == "MAS_SSH_COMMAND" {
			return os.Args[0]
		}
		return getenv(k)
	}
	for _, h := range []remote.Host{{Name: "gpu1", Destination: "gpu1"}, {Name: "lab", Destination: "down"}} {
		if err := remote.Add(f.a.Root(), h); err != nil {
			t.Fatal(err)
		}
	}
	data, _ := json.Marshal([]Session{hostRow(idA, "stopped")})
	os.WriteFile(filepath.Join(hostsDir, "gpu1.json"), data, 0o644)
	f.a.Hosts = NewHostList(f.a)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); f.a.Hosts.Run(ctx, HostRefreshEvery) }()
	t.Cleanup(func() { cancel(); <-done })

	url, _, _ := f.serve(t, api.Options{})
	c := f.c
	s := f.open(t, url+"/")
	hostCell := func(id string) string {
		return fmt.Sprintf(`(document.querySelector('#sessions tr[data-id="%s"] td.host') || {}).textContent`, id)
	}
	c.waitFor(t, s, hostCell("gpu1:"+idA), "gpu1")
	c.waitFor(t, s, rowStatus("gpu1:"+idA), "stopped")
	c.waitFor(t, s, `document.getElementById("hosts-down").textContent`,
		"Host lab does not answer: host lab: ssh failed: ssh: connect to host down port 22: Connection refused")
	c.waitFor(t, s, `document.querySelector('#sessions tr[data-id="gpu1:`+idA+`"] td.actions').textContent`, "mas session attach gpu1:1612c47fResumeRemove")

	// Create one on gpu1 from the form, with a prompt.
	c.eval(t, s, `{ const f = document.getElementById("create");
		f.elements.host.value = "gpu1"; f.elements.host.dispatchEvent(new Event("change"));
		document.querySelector("textarea[name=prompt-21]").value = "on the host";
		document.getElementById("create-button").click(); } "ok"`)
	c.waitFor(t, s, `document.getElementById("created").textContent.startsWith("Created gpu1:")`, "true")
	id := strings.TrimPrefix(c.eval(t, s, `document.getElementById("created").textContent.split(" ")[1]`), "gpu1:")
	if !isolated.IsID(id) {
		t.Fatalf("created %q", id)
	}
	c.waitFor(t, s, hostCell("gpu1:"+id), "gpu1")
	config, err := os.ReadFile(filepath.Join(hostsDir, "gpu1-"+id+".config"))
	if err != nil || !strings.Contains(string(config), `"prompt":"on the host"`) {
		t.Errorf("the host got config %s, %v", config, err)
	}
	if local, _, err := f.a.SessionList(context.Background()); len(local) != 0 || err != nil {
		t.Errorf("sessions made here: %+v, %v", local, err)
	}
	f.screenshot(t, s, "web-ui-hosts.png", 1280, 800, false)

	// Stop, resume, stop and remove it from its row, on the host.
	ref := "gpu1:" + id
	c.eval(t, s, `window.confirm = () => true; "ok"`)
	c.eval(t, s, click(rowButton(ref, "stop")))
	c.waitFor(t, s, rowStatus(ref), "stopped")
	c.eval(t, s, click(rowButton(ref, "resume")))
	c.waitFor(t, s, rowStatus(ref), "active")
	c.eval(t, s, click(rowButton(ref, "stop")))
	c.waitFor(t, s, rowStatus(ref), "stopped")
	c.eval(t, s, click(rowButton(ref, "remove")))
	c.waitFor(t, s, `!!document.querySelector('#sessions tr[data-id="`+ref+`"]')`, "false")
	if data, _ := os.ReadFile(filepath.Join(hostsDir, "gpu1.json")); strings.Contains(string(data), id) {
		t.Errorf("still on the host: %s", data)
	}
	if n := c.eval(t, s, `document.querySelectorAll('#sessions tr[data-id="gpu1:`+idA+`"] button.watch').length`); n != "0" {
		t.Errorf("a host's row offers Watch")
	}
}
