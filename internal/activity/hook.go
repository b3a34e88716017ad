package activity

import (
	"context"
	"encoding/json"
	"io"
	"slices"
	"time"

	"mas/internal/roster"
)

// HookCommand is the hidden command the agents' hooks run:
// "mas __hook DIR EVENT", the event's JSON body on stdin.
const HookCommand = "__hook"

// AgentVar is the variable that tells an agent's programs, hooks among
// them, which agent of the team they work for; every pane has it.
const AgentVar = "MAS_AGENT_ID"

// hookBudget bounds a hook's whole run: an agent waits for its hooks, so
// an event that cannot be recorded by then is dropped.
const hookBudget = 2 * time.Second

// maxBody caps the JSON body a hook reads: a tool's input may be a whole
// file, and only a few fields are of use. A larger body is recorded by its
// event alone.
const maxBody = 1 << 20

// Hook records one event of the agent that AgentVar names in the activity
// directory args[0]; args[1] is the event's name, which the settings file
// gives, so that an event whose body cannot be read is still recorded. It
// never fails the agent: whatever goes wrong, the event is dropped, and
// the command exits 0.
func Hook(args []string, stdin io.Reader, getenv func(string) string, now func() time.Time) {
	if len(args) != 2 || !slices.Contains(Events, args[1]) {
		return
	}
	dir, name := args[0], args[1]
	id := getenv(AgentVar)
	if _, ok := roster.Lookup(id); !ok {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), hookBudget)
	defer cancel()
	e := readEvent(ctx, stdin)
	if e.Name != name {
		e = Event{Name: name} // a body that is not this event's tells nothing
	}
	t := now().UTC()
	Update(ctx, dir, id, hookBudget, func(s State) State { return Apply(s, e, t) })
}

// readEvent reads the event's JSON body, within ctx; a body that cannot be
// read in time, or is not JSON, gives an empty Event.
func readEvent(ctx context.Context, stdin io.Reader) Event {
	got := make(chan Event, 1)
	go func() {
		var e Event
		data, err := io.ReadAll(io.LimitReader(stdin, maxBody+1))
		if err == nil && len(data) <= maxBody && json.Unmarshal(data, &e) != nil {
			e = Event{}
		}
		got <- e
	}()
	select {
	case e := <-got:
		return e
	case <-ctx.Done():
		return Event{}
	}
}
