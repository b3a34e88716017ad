package roster

import "strings"

// groups are the named targets; each expands to these ids in this order.
var groups = map[string][]string{
	"window0":     {"00"},
	"window1":     {"10", "11", "12", "13"},
	"window2":     {"20", "21", "22", "23"},
	"window3":     {"30", "31", "32", "33"},
	"meta":        {"00"},
	"design":      {"10", "11", "12", "13"},
	"development": {"20", "21", "22", "23"},
	"business":    {"30", "31", "32", "33"},
	"managers":    {"00", "10", "20", "30"},
	"workers":     {"11", "12", "13", "21", "22", "23", "31", "32", "33"},
	"all":         {"00", "10", "11", "12", "13", "20", "21", "22", "23", "30", "31", "32", "33"},
}

// Expand turns a message target into agent ids, in order and with
// duplicates kept ("00,00" names agent 00 twice). A target is an agent id
// ("12"), "agent-12", a window or unit name ("window1", "design"), "managers",
// "workers", "all", or a comma-separated list of those whose parts are
// trimmed of blanks. Matching is case-sensitive. Parts that name no agent —
// including "01", "02" and "03", which look like ids but have no seat — are
// returned in unknown; empty parts of a list are ignored.
func Expand(target string) (ids, unknown []string) {
	if strings.Contains(target, ",") {
		for part := range strings.SplitSeq(target, ",") {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			i, u := Expand(part)
			ids = append(ids, i...)
			unknown = append(unknown, u...)
		}
		return ids, unknown
	}
	if g, ok := groups[target]; ok {
		return append([]string(nil), g...), nil
	}
	id := strings.TrimPrefix(target, "agent-")
	if _, ok := names[id]; ok {
		return []string{id}, nil
	}
	return nil, []string{target}
}
