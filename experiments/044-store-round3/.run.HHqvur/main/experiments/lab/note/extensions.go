package note

import (
	"fmt"
	"strings"
)

// writeExtensions says, when the runner gave undecided workloads more
// pairs, how many pairs each workload took and why: the judge's reason at
// each step. It follows the verdicts.
func (e *Experiment) writeExtensions(b *strings.Builder) {
	m := e.Meta
	if len(m.Extensions) == 0 {
		return
	}
	fmt.Fprintf(b, "Pairs added: after the first %d pairs, a workload the judge left unknown and more pairs could decide got two more at a time, alone, up to %d in all, judged by the sequential rule (its chance of a false verdict within that of %d fixed pairs):\n\n",
		m.Pairs, m.MaxPairs, m.MaxPairs)
	for _, w := range e.Report.Workloads {
		var why []string
		last := m.Pairs
		for _, ext := range m.Extensions {
			r, ok := ext.Reasons[w.Workload]
			if !ok {
				continue
			}
			why = append(why, fmt.Sprintf("after %d: %s", ext.AfterPairs, strings.TrimSuffix(r, ".")))
			last = max(last, ext.Pairs[len(ext.Pairs)-1])
		}
		if len(why) == 0 {
			continue
		}
		fmt.Fprintf(b, "- **%s**: %d pairs (%d, then %d more). Unknown %s.\n", w.Workload, last, m.Pairs, last-m.Pairs, strings.Join(why, "; "))
	}
	b.WriteString("\n")
}
