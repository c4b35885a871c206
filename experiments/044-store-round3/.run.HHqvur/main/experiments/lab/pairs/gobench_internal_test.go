package pairs

import "testing"

func TestModuleExperiment(t *testing.T) {
	for _, c := range []struct {
		commits [2]string
		want    string
	}{
		{[2]string{"github.com/agnivade/levenshtein@v1.2.1", "github.com/agnivade/levenshtein@v1.2.2"}, "037-gomod-levenshtein-v1.2.1-v1.2.2"},
		{[2]string{"example.com/old@v2.0.0+incompatible", "example.com/old@v2.1.0+incompatible"}, "037-gomod-old-v2.0.0-incompatible-v2.1.0-incompatible"},
	} {
		got := moduleExperiment("037-pairs-x-y", c.commits)
		if got != c.want || checkExperimentName(got) != nil {
			t.Errorf("moduleExperiment(%q) = %q (%v), want %q", c.commits, got, checkExperimentName(got), c.want)
		}
	}
}
