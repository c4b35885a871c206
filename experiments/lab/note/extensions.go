package note

import (
	"fmt"
	"strings"
	"time"
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
			step := fmt.Sprintf("after %d: %s", ext.AfterPairs, strings.TrimSuffix(r, "."))
			if bs := ext.Backends[w.Workload]; len(bs) > 0 {
				nums := make([]string, len(ext.Pairs))
				for i, p := range ext.Pairs {
					nums[i] = fmt.Sprint(p)
				}
				step += fmt.Sprintf(" (%s %s measured by %s alone)", map[bool]string{true: "pair", false: "pairs"}[len(nums) == 1], strings.Join(nums, " and "), strings.Join(bs, " and "))
			}
			why = append(why, step)
			last = max(last, ext.Pairs[len(ext.Pairs)-1])
		}
		if len(why) == 0 {
			continue
		}
		fmt.Fprintf(b, "- **%s**: %d pairs (%d, then %d more). Unknown %s.\n", w.Workload, last, m.Pairs, last-m.Pairs, strings.Join(why, "; "))
	}
	b.WriteString("\n")
}

// writeBudgetStop says, when the time budget kept a step of added pairs
// from starting, which workloads it left as they were and why.
func (e *Experiment) writeBudgetStop(b *strings.Builder) {
	m := e.Meta
	st := m.BudgetStop
	if st == nil {
		return
	}
	stay := "they stay as the judge left them"
	if len(st.Workloads) == 1 {
		stay = "it stays as the judge left it"
	}
	pairs := fmt.Sprintf("%d pairs", st.AfterPairs)
	if st.AfterPairs == 1 {
		pairs = "1 pair"
	}
	fmt.Fprintf(b, "Time budget: after %s, %s from the start, %s would have needed about %s more, past the budget of %s (max-time), so no more pairs ran; %s.\n\n",
		pairs, roughly(st.Elapsed), strings.Join(st.Workloads, ", "), roughly(st.Estimate), m.MaxTime, stay)
}

// roughly rounds d for a sentence: to the second from ten seconds up, to
// the hundredth of a second below.
func roughly(d time.Duration) time.Duration {
	if d >= 10*time.Second {
		return d.Round(time.Second)
	}
	return d.Round(10 * time.Millisecond)
}
