package app

import (
	"strings"
	"testing"
)

func TestConfigPrompts(t *testing.T) {
	tests := []struct {
		json string
		want string
		err  string
		why  string
	}{
		{`{"agents": {"metaManager": {"prompt": "m"}}, "units": [{"manager": {"id": "10", "prompt": "a"}, "workers": [{"id": "11", "prompt": "b"}, {"id": "12", "prompt": ""}]}]}`,
			"00:m 10:a 11:b", "", "examples/simple-session.json shape; empty prompts skipped"},
		{`{"metaManager": {"id": "00", "prompt": "m"}, "units": [{"unitId": 1, "manager": {"id": "20", "prompt": "a"}}]}`,
			"00:m 20:a", "", "bug #22: the POST /runs shape keeps the meta prompt"},
		{`{"agents": {"metaManager": {"prompt": "m"}, "units": [{"manager": {"id": "30", "prompt": "c"}}]}}`,
			"00:m 30:c", "", "the whole /runs body of 33f2c19"},
		{`{"units": [{"manager": {"id": "01", "prompt": "x"}}]}`, "", `config: no agent has id "01"`, "ids are checked"},
		{`{"units": {"x": 1}}`, "", "config: json", "wrong types are errors"},
		{`{}`, "", "", "no prompts"},
		{`{"sessionName": "simple-project", "agents": {"metaManager": {"prompt": "m"}}, "units": [{"name": "design", "manager": {"id": "10", "prompt": "a"}}]}`,
			"00:m 10:a", "", "keys the original's examples carried and nothing reads stay accepted"},
		{`{"metaManager": {"promt": "m"}}`, "", "config: unknown key metaManager.promt (known there: id, prompt)",
			"issue 30: a typo sent nothing and exited 0"},
		{`{"sessionNme": "x", "units": [{"manager": {"id": "10", "prompt": "a"}}, {"workers": [{"id": "11", "text": "b"}]}]}`, "",
			"config: unknown keys sessionNme (known there: agents, metaManager, sessionName, units); units[1].workers[0].text (known there: id, prompt)",
			"every unknown key is named, with its path, in one error"},
		{`{"agents": {"sessionName": "x"}}`, "", "config: unknown key agents.sessionName (known there: metaManager, units)",
			"under agents, only the team's keys"},
	}
	for _, tt := range tests {
		ps, err := ConfigPrompts([]byte(tt.json))
		var got []string
		for _, p := range ps {
			got = append(got, p.Agent+":"+p.Text)
		}
		if strings.Join(got, " ") != tt.want || (err == nil) != (tt.err == "") || err != nil && !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%s: got %v, %v; want %q, %q", tt.why, got, err, tt.want, tt.err)
		}
	}
}
