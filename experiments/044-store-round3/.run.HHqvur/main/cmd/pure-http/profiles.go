package main

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/google/pprof/profile"
)

// profileTop is how many functions the note lists per profiled server and
// workload.
const profileTop = 6

// renderProfiles lists, for each workload and profiled server, the
// functions with the most CPU samples in its profiles (profile=1), summed
// over the rounds. A goroutine in a system call is sampled in that call,
// so the syscall functions' share is time in the kernel.
func renderProfiles(b *strings.Builder, dir string, recs []Record) {
	type key struct{ work, id string }
	var keys []key
	files := map[key][]string{}
	for _, r := range recs {
		if r.Profile == "" {
			continue
		}
		k := key{r.Workload, r.ID}
		if _, ok := files[k]; !ok {
			keys = append(keys, k)
		}
		files[k] = append(files[k], r.Profile)
	}
	if len(keys) == 0 {
		return
	}
	fmt.Fprintf(b, "\n## Where pure-serve spent its CPU\n\nCPU profiles of the load (`profile=1`: net/http/pprof, 100 samples per CPU-second, in `profiles/`), summed over the rounds: the %d functions with the most samples (flat, the function itself) and their share of all samples. A goroutine in a system call is sampled in it, so `Syscall6` and its kin are time in the kernel. Read one with `go tool pprof -top experiments/…/profiles/FILE`.\n\n", profileTop)
	var rows [][]string
	for _, k := range keys {
		top, total, err := topFlat(dir, files[k], profileTop)
		if err != nil {
			rows = append(rows, []string{k.work, k.id, "", "(" + err.Error() + ")"})
			continue
		}
		var parts []string
		for _, f := range top {
			parts = append(parts, fmt.Sprintf("%s %.0f %%", shortFunc(f.name), 100*float64(f.flat)/float64(total)))
		}
		rows = append(rows, []string{k.work, k.id, fmt.Sprintf("%.2f", float64(total)/1e9), strings.Join(parts, ", ")})
	}
	mdTable(b, []string{"workload", "server", "sampled CPU-s", "most samples (flat)"}, rows, []bool{false, false, true, false})
}

type funcFlat struct {
	name string
	flat int64
}

// topFlat sums the flat CPU time per function over the profiles at rels
// (relative to dir) and returns the n largest and the total.
func topFlat(dir string, rels []string, n int) ([]funcFlat, int64, error) {
	sum := map[string]int64{}
	var total int64
	for _, rel := range rels {
		f, err := os.Open(filepath.Join(dir, rel))
		if err != nil {
			if pe, ok := errors.AsType[*os.PathError](err); ok {
				err = pe.Err // the path is dir's; name it relative
			}
			return nil, 0, fmt.Errorf("%s: %w", rel, err)
		}
		p, err := profile.Parse(f)
		f.Close()
		if err != nil {
			return nil, 0, fmt.Errorf("%s: %w", rel, err)
		}
		i := slices.IndexFunc(p.SampleType, func(v *profile.ValueType) bool { return v.Unit == "nanoseconds" })
		if i < 0 {
			return nil, 0, fmt.Errorf("%s: no samples in nanoseconds", rel)
		}
		for _, s := range p.Sample {
			v := s.Value[i]
			total += v
			name := "?"
			if len(s.Location) > 0 {
				if l := s.Location[0]; len(l.Line) > 0 && l.Line[0].Function != nil {
					name = l.Line[0].Function.Name
				} else {
					name = fmt.Sprintf("%#x", l.Address)
				}
			}
			sum[name] += v
		}
	}
	if total == 0 {
		return nil, 0, fmt.Errorf("no samples")
	}
	var out []funcFlat
	for name, v := range sum {
		out = append(out, funcFlat{name, v})
	}
	slices.SortFunc(out, func(a, b funcFlat) int {
		return cmp.Or(cmp.Compare(b.flat, a.flat), cmp.Compare(a.name, b.name))
	})
	return out[:min(n, len(out))], total, nil
}

// shortFunc drops a function name's package path, keeping its last
// element: workbench/pure/serve.(*conn).doc is serve.(*conn).doc.
func shortFunc(name string) string {
	if i := strings.LastIndex(name, "/"); i >= 0 {
		return name[i+1:]
	}
	return name
}
