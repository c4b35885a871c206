package gobench

import "testing"

// An A/A run saves its runs as the calibration of its commit and suite
// name: two selections of one module must not share a name, or the second
// A/A would replace the first's calibration.
func TestSubject_SuiteName(t *testing.T) {
	all := Subject{Repo: "/r"}.SuiteName()
	if all != SuiteName {
		t.Errorf("every benchmark: suite %q, want %q", all, SuiteName)
	}
	if got := (Subject{Repo: "/r", Pkg: DefaultPkg, Bench: "."}).SuiteName(); got != all {
		t.Errorf("the defaults spelled out: suite %q, want %q", got, all)
	}
	seen := map[string]Subject{}
	for _, s := range []Subject{
		{Pkg: "./a", Bench: "."}, {Pkg: DefaultPkg, Bench: "Sum"}, {Pkg: "./a", Bench: "Sum"},
		{Pkg: "./a/...", Bench: "Sum"}, {Pkg: "./a", Bench: "Sum/small"},
	} {
		name := s.SuiteName()
		if name == all {
			t.Errorf("pkg=%s bench=%s: suite %q, the name of every benchmark", s.Pkg, s.Bench, name)
		}
		if o, dup := seen[name]; dup {
			t.Errorf("pkg=%s bench=%s and pkg=%s bench=%s share suite %q", s.Pkg, s.Bench, o.Pkg, o.Bench, name)
		}
		seen[name] = s
		if again := s.SuiteName(); again != name {
			t.Errorf("pkg=%s bench=%s: %q then %q", s.Pkg, s.Bench, name, again)
		}
	}
}
