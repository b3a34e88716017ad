package cli

import (
	"context"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"

	ucli "github.com/urfave/cli/v2"

	"mas/internal/app"
	"mas/internal/layout"
	"mas/internal/remote"
)

// cmdHost is the group of the commands about the hosts that sessions run
// on over ssh (docs/hosts.md).
var cmdHost = &command{name: "host", usage: "Other machines, reached over ssh, that sessions run on", subs: []*command{
	cmdHostAdd, cmdHostList, cmdHostRm,
}}

var cmdHostAdd = &command{name: "add", args: []arg{required(textArg, "<name>"), required(textArg, "<destination>")},
	usage:  "Add a host: a name of your choice and where ssh reaches it (user@host, an alias of your ssh config, ssh://user@host:port)",
	flags:  []flagSpec{{long: "root", value: "DIR", kind: textArg, usage: "the root of mas on that host (its MAS_ROOT); by default, the one mas finds there"}},
	action: (*CommandLine).hostAdd,
	examples: []example{
		{"mas host add gpu1 me@gpu1.example.com", "a host that ssh reaches as me at gpu1"},
		{"mas host add lab ssh://me@10.0.0.7:2222 --root /srv/mas", "a host on another port, whose sessions live under /srv/mas"},
	}}

func (cl *CommandLine) hostAdd(_ context.Context, cc *ucli.Context) error {
	root := cl.app.Root()
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return fmt.Errorf("host add: the root %s does not exist (%s)", root, cl.app.RootWhy())
	}
	h := remote.Host{Name: cc.Args().Get(0), Destination: cc.Args().Get(1), Root: cc.String("root")}
	if err := h.Check(); err != nil {
		return app.Usagef("host add: %v", err)
	}
	if err := remote.Add(root, h); err != nil {
		return fmt.Errorf("host add: %w", err)
	}
	cl.stderr.Infof("Added host %s (%s); mas host list checks that it answers", h.Name, h.Destination)
	return nil
}

var cmdHostList = &command{name: "list", usage: "List the hosts, each asked over ssh, all at once, whether it answers and its mas version",
	flags:  []flagSpec{{long: "json", usage: "print JSON"}},
	action: (*CommandLine).hostList,
	examples: []example{
		{"mas host list", "each host, whether it answers and its version of mas"},
	}}

// hostState is a host as host list shows it.
type hostState struct {
	remote.Host
	Answers bool   `json:"answers"`
	Version string `json:"version,omitempty"` // of its mas, when it answers
	Error   string `json:"error,omitempty"`   // why it does not
}

func (cl *CommandLine) hostList(ctx context.Context, cc *ucli.Context) error {
	hosts, timeout, err := cl.hostsToAsk()
	if err != nil {
		return err
	}
	states := make([]hostState, len(hosts))
	err = eachHost(ctx, hosts, func(i int, h remote.Host) {
		states[i] = hostState{Host: h}
		r, err := cl.callHost(ctx, h, remote.Request{Args: []string{"version"}}, timeout)
		if err != nil {
			states[i].Error = err.Error()
			return
		}
		states[i].Answers, states[i].Version = true, r.Version
	})
	if err != nil {
		return fmt.Errorf("host list: %w", err)
	}
	if cc.Bool("json") {
		return cl.writeJSON(struct {
			Hosts []hostState `json:"hosts"`
		}{append([]hostState{}, states...)})
	}
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tDESTINATION\tROOT\tMAS")
	for _, s := range states {
		root, state := s.Root, s.Version
		if root == "" {
			root = "-"
		}
		if !s.Answers {
			state = "no answer: " + layout.Printable(strings.ReplaceAll(s.Error, "\n", "; "))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", s.Name, s.Destination, root, state)
	}
	tw.Flush()
	_, err = fmt.Fprint(cl.io.Stdout, b.String())
	return err
}

var cmdHostRm = &command{name: "rm", args: []arg{required(hostArg, "<name>")}, usage: "Forget a host; its sessions there go on running",
	action: (*CommandLine).hostRemove,
	examples: []example{
		{"mas host rm gpu1", "forget the host gpu1"},
	}}

func (cl *CommandLine) hostRemove(_ context.Context, cc *ucli.Context) error {
	name := cc.Args().First()
	if err := remote.Remove(cl.app.Root(), name); err != nil {
		return fmt.Errorf("host rm: %w", err)
	}
	cl.stderr.Infof("Removed host %s", name)
	return nil
}
