package templates

// The template files are generated from the roster by this test, so that
// names, models, reporting lines and messaging rules can never drift from
// the code. Run `go test ./templates -update` after changing anything here.

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"mas/internal/roster"
)

var update = flag.Bool("update", false, "rewrite the template files from the generator")

// unitInfo describes one unit for the generated text.
type unitInfo struct {
	name    string // "Design"
	window  string
	mission string
}

var units = map[int]unitInfo{
	0: {"Meta", "meta", "turn the user's goal into a plan, split it between the three units and keep them aligned until the whole result is delivered"},
	1: {"Design", "design", "decide how the product looks and feels: user flows, interface structure, visual language and the assets developers build from"},
	2: {"Development", "development", "build, test and ship the product: front end, back end, infrastructure and the automation around them"},
	3: {"Business", "business", "make the product viable: costs and budgets, market and strategy, and the numbers that show whether it works"},
}

var duties = map[string][]string{
	"00": {
		"Read the user's goal and write a short plan: what each unit must deliver, in which order, and how the parts fit together.",
		"Give each unit manager (10, 20, 30) a clear assignment with a definition of done; do not assign work to workers directly.",
		"Watch for dependencies between units (design before front end, costs before pricing) and tell the managers concerned.",
		"Decide when managers disagree, and keep a running summary of decisions in `DECISIONS.md` in your directory.",
		"Report the combined result to the user when every unit has delivered.",
	},
	"10": {
		"Split the design assignment from 00 into tasks for 11 (UI), 12 (UX) and 13 (visual).",
		"Review your workers' output for consistency before it leaves the unit.",
		"Agree interfaces with the Development Manager (20): what developers get from design and in which format.",
		"Report progress and blockers to 00.",
	},
	"11": {
		"Design screens and components: layout, states, spacing and the component inventory.",
		"Write specifications developers can build from without guessing (sizes, behaviour, empty and error states).",
		"Keep the component list in your directory up to date.",
	},
	"12": {
		"Map user journeys and the information architecture.",
		"Write the flows, edge cases and acceptance criteria for each user task.",
		"Point out where a flow is confusing, and propose simpler ones.",
	},
	"13": {
		"Define the visual language: colours, typography, icons and imagery.",
		"Check contrast and readability; state the accessibility level each choice meets.",
		"Prepare assets and style tokens in a form the front end can use directly.",
	},
	"20": {
		"Split the development assignment from 00 into tasks for 21 (front end), 22 (back end) and 23 (DevOps).",
		"Decide the architecture and interfaces between the parts, and write them down before work starts.",
		"Review and integrate your workers' changes; make sure tests pass before you report work as done.",
		"Report progress and blockers to 00; ask the Design Manager (10) when a specification is unclear.",
	},
	"21": {
		"Build the user interface from the design specifications.",
		"Write tests for components and user flows.",
		"Tell 22 early what the front end needs from the API.",
	},
	"22": {
		"Build the server side: API, data model, storage and business rules.",
		"Document every endpoint you add, with request and response examples.",
		"Write tests for the behaviour, including failure cases.",
	},
	"23": {
		"Set up building, testing and deployment so that one command runs each.",
		"Keep environments reproducible and secrets out of the repository.",
		"Watch logs and resource use, and report risks to 20.",
	},
	"30": {
		"Split the business assignment from 00 into tasks for 31 (accounting), 32 (strategy) and 33 (analytics).",
		"Combine their findings into recommendations the Meta Manager can act on.",
		"Report progress, risks and decisions needed to 00.",
	},
	"31": {
		"Estimate costs, budgets and pricing; state every assumption.",
		"Keep a simple ledger of expected costs and revenue in your directory.",
		"Flag spending or pricing risks to 30.",
	},
	"32": {
		"Study the market, the competitors and the target users.",
		"Propose positioning and a plan for launch, with the trade-offs.",
		"Check that what the other units build serves the strategy; tell 30 when it does not.",
	},
	"33": {
		"Define the metrics that show whether the product works, and how to collect them.",
		"Analyse the data you are given and report findings with the numbers behind them.",
		"Propose experiments when a question cannot be answered from existing data.",
	},
}

func unitOf(a roster.Agent) unitInfo { return units[unitNumber(a)] }

// The generator's own facts about a seat, read from its id: the first
// digit is the unit (0 meta, 1 design, 2 development, 3 business), seat 0
// is the unit's manager, and a manager reports to 00.
func unitNumber(a roster.Agent) int { return int(a.ID[0] - '0') }

func isManager(a roster.Agent) bool { return a.ID[1] == '0' }

func managerOf(id string) string {
	switch {
	case id == "00":
		return ""
	case id[1] == '0':
		return "00"
	default:
		return id[:1] + "0"
	}
}

func describe(id string) string {
	a, _ := roster.Lookup(id)
	return fmt.Sprintf("%s (%s)", a.ID, a.Name)
}

// contacts lists whom an agent may message: managers talk to 00 and to each
// other's units only through their managers; workers talk to their manager
// and to the workers of their own unit.
func contacts(a roster.Agent) []string {
	var out []string
	for _, b := range roster.All() {
		if b.ID == a.ID {
			continue
		}
		switch {
		case a.ID == "00" && isManager(b),
			isManager(a) && a.ID != "00" && (b.ID == "00" || unitNumber(b) == unitNumber(a)),
			!isManager(a) && unitNumber(b) == unitNumber(a):
			out = append(out, describe(b.ID))
		}
	}
	return out
}

func workflowFile(a roster.Agent) string {
	u := strings.ToLower(unitOf(a).name)
	if isManager(a) {
		return u + "_manager.md"
	}
	return u + "_workers.md"
}

func readme(a roster.Agent) string {
	u := unitOf(a)
	var b strings.Builder
	fmt.Fprintf(&b, "# Agent %s: %s\n\n", a.ID, a.Name)
	fmt.Fprintf(&b, "| | |\n|---|---|\n")
	fmt.Fprintf(&b, "| Id | %s |\n", a.ID)
	fmt.Fprintf(&b, "| Name | %s |\n", a.Name)
	fmt.Fprintf(&b, "| Role | %s of the %s unit |\n", map[bool]string{true: "Manager", false: "Worker"}[isManager(a)], u.name)
	fmt.Fprintf(&b, "| Model | %s |\n", a.Model)
	if m := managerOf(a.ID); m != "" {
		fmt.Fprintf(&b, "| Reports to | %s |\n", describe(m))
	} else {
		b.WriteString("| Reports to | the user |\n")
	}
	fmt.Fprintf(&b, "| tmux | window `%s`, pane %d |\n\n", u.window, a.Pane+1)
	fmt.Fprintf(&b, "The %s unit's mission: %s.\n\n", u.name, u.mission)
	b.WriteString("## Responsibilities\n\n")
	for _, d := range duties[a.ID] {
		fmt.Fprintf(&b, "- %s\n", d)
	}
	b.WriteString("\n## Your files\n\n")
	fmt.Fprintf(&b, "This directory is yours: `$UNIT_DIR/%s`. Keep your notes and results here. ", a.ID)
	b.WriteString("Other agents' directories are siblings (`$UNIT_DIR/NN`); read them, but do not edit them.\n")
	b.WriteString("`WORKFLOW_INSTRUCTIONS.md` says how your work flows")
	if !isManager(a) {
		b.WriteString("; `WORKER_GUIDELINES.md` holds the rules every worker follows")
	}
	b.WriteString(".\n")
	return b.String()
}

// sendSection explains mas send to an agent; for the shared worker file, a
// is the unit's manager seen from a worker and contacts lists the whole unit.
func sendSection(a roster.Agent, contacts []string, closing string) string {
	var b strings.Builder
	b.WriteString("## Messaging\n\n")
	b.WriteString("You reach other agents with `mas send`; the text is typed into their input exactly as written.\n\n")
	b.WriteString("```sh\n")
	if m := managerOf(a.ID); m != "" {
		fmt.Fprintf(&b, "mas send %s \"[from %s] <status, question or result>\" -e\n", m, a.ID)
	} else {
		b.WriteString("mas send managers \"[from 00] <plan or decision>\" -e\n")
	}
	b.WriteString("```\n\n")
	b.WriteString("`-e` presses Enter so the message is submitted; without it the text waits in the input. ")
	b.WriteString("Start every message with `[from NN]` so the reader knows who wrote it. ")
	b.WriteString("Targets: an id (`12`), a unit (`design`, `development`, `business`, `meta`), `managers`, `workers`, `all`, ")
	b.WriteString("or a comma-separated list (`11,12`). `mas list` shows every agent.\n\n")
	b.WriteString("You may message:\n\n")
	for _, c := range contacts {
		fmt.Fprintf(&b, "- %s\n", c)
	}
	fmt.Fprintf(&b, "\n%s\n", closing)
	return b.String()
}

func managerWorkflow(a roster.Agent) string {
	u := unitOf(a)
	var b strings.Builder
	fmt.Fprintf(&b, "# Workflow: %s (%s)\n\n", a.Name, a.ID)
	if a.ID == "00" {
		b.WriteString("You lead the whole team. The user gives you a goal; you turn it into work for the three unit managers and deliver the combined result.\n\n")
		b.WriteString("## Steps\n\n")
		b.WriteString("1. Restate the goal in a few lines and list open questions. Ask the user only what blocks planning.\n")
		b.WriteString("2. Write `PLAN.md` in your directory: deliverables per unit, order, dependencies, definition of done.\n")
		b.WriteString("3. Send each manager its part (`mas send 10 \"[from 00] …\" -e`, likewise 20 and 30).\n")
		b.WriteString("4. When a manager reports, check the result against the plan; resolve conflicts between units.\n")
		b.WriteString("5. When all units are done, write the summary for the user.\n\n")
	} else {
		fmt.Fprintf(&b, "You run the %s unit. The Meta Manager (00) gives you assignments; your workers do the work; you make sure it is right and report back.\n\n", u.name)
		b.WriteString("## Steps\n\n")
		b.WriteString("1. Read the assignment from 00; ask 00 at once if the definition of done is unclear.\n")
		b.WriteString("2. Split it into tasks, one message per worker, each with the expected output file and deadline in steps.\n")
		b.WriteString("3. Answer your workers' questions quickly; they wait for you.\n")
		b.WriteString("4. Review what they deliver; send it back with concrete remarks when it is not ready.\n")
		fmt.Fprintf(&b, "5. Report to 00 with what was done, where it is, and what is still open: `mas send 00 \"[from %s] …\" -e`.\n\n", a.ID)
	}
	closing := "Work for the workers of other units goes through their manager."
	if a.ID == "00" {
		closing = "The managers pass your instructions on to their workers; do not message workers directly."
	}
	b.WriteString(sendSection(a, contacts(a), closing))
	return b.String()
}

func workerWorkflow(unit int) string {
	u := units[unit]
	mgr := fmt.Sprintf("%d0", unit)
	var b strings.Builder
	fmt.Fprintf(&b, "# Workflow: %s unit workers\n\n", u.name)
	fmt.Fprintf(&b, "You are a worker of the %s unit, whose mission is to %s. Your manager is %s.\n\n", u.name, u.mission, describe(mgr))
	b.WriteString("## Steps\n\n")
	fmt.Fprintf(&b, "1. Wait for a task from %s; it names what to produce and where.\n", mgr)
	b.WriteString("2. Do the task in your own directory. Keep a short `NOTES.md` of what you did and why.\n")
	b.WriteString("3. When something blocks you for more than a few steps, ask your manager rather than guessing.\n")
	fmt.Fprintf(&b, "4. When done, report to %s with the path of the result and anything left open.\n\n", mgr)
	b.WriteString("## Your unit\n\n")
	for _, w := range roster.Windows()[unit].Agents[1:] {
		a, _ := roster.Lookup(w)
		fmt.Fprintf(&b, "- %s (%s): %s\n", a.ID, a.Name, duties[a.ID][0])
	}
	b.WriteString("\n")
	// The messaging rules are the same for every worker of a unit.
	first, _ := roster.Lookup(roster.Windows()[unit].Agents[1])
	var team []string
	for _, id := range roster.Windows()[unit].Agents {
		team = append(team, describe(id))
	}
	text := sendSection(first, team, "Everyone else is reached through your manager.")
	text = strings.Replace(text, "You may message:", "You may message the members of your unit (not yourself):", 1)
	b.WriteString(strings.ReplaceAll(text, "[from "+first.ID+"]", "[from <your id>]"))
	return b.String()
}

const workersCommon = `# Guidelines for every worker

1. One task at a time. Finish or hand back the current task before taking another.
2. Work only in your own directory. Read other agents' directories, never edit them.
3. Report results, not activity: say what exists now, where it is, and how it was checked.
4. Keep messages short and complete. Start with ` + "`[from NN]`" + `, then the point, then the path of any file.
5. When a task is unclear, ask your manager before you start, not after.
6. Never send secrets, tokens or passwords in a message; write where they are kept instead.
7. Use ` + "`mas send <id> \"…\" -e`" + ` to deliver a message; without ` + "`-e`" + ` it is typed but not submitted.
`

// generate returns every template file by its slash path.
func generate() map[string]string {
	files := map[string]string{"workflows/workers_common.md": workersCommon}
	for u := 1; u <= 3; u++ {
		files["workflows/"+strings.ToLower(units[u].name)+"_workers.md"] = workerWorkflow(u)
	}
	for _, a := range roster.All() {
		wf := "workflows/" + workflowFile(a)
		if isManager(a) {
			files[wf] = managerWorkflow(a)
		}
		dir := "unit/" + a.ID + "/"
		files[dir+"README.md"] = readme(a)
		files[dir+"WORKFLOW_INSTRUCTIONS.md"] = files[wf]
		if !isManager(a) {
			files[dir+"WORKER_GUIDELINES.md"] = workersCommon
		}
	}
	return files
}

func TestTemplatesMatchGenerator(t *testing.T) {
	want := generate()
	if *update {
		for _, d := range []string{"unit", "workflows"} {
			if err := os.RemoveAll(d); err != nil {
				t.Fatal(err)
			}
		}
		for p, content := range want {
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		t.Skip("templates rewritten; the embedded copy is checked on the next run")
	}
	var got []string
	err := fs.WalkDir(files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		got = append(got, p)
		data, err := fs.ReadFile(files, p)
		if err != nil {
			return err
		}
		if string(data) != want[p] {
			t.Errorf("%s differs from the generator; run go test ./templates -update", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		sort.Strings(got)
		t.Errorf("embedded %d files, generator makes %d: %v", len(got), len(want), got)
	}
}
