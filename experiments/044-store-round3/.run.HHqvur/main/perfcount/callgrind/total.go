package callgrind

import (
	"fmt"
	"math/bits"
)

// eventIndex returns the column of event in part, or an error naming the
// events the part has.
func (part *Part) eventIndex(event string) (int, error) {
	for i, e := range part.Events {
		if e == event {
			return i, nil
		}
	}
	return 0, fmt.Errorf("callgrind: part %d has no event %q (events: %v): %w", part.Number, event, part.Events, ErrUnknownEvent)
}

// Total returns the part's total for event: the "totals:" line if there
// is one, else the "summary:" line, else the computed sum of self costs.
func (part *Part) Total(event string) (uint64, error) {
	i, err := part.eventIndex(event)
	if err != nil {
		return 0, err
	}
	switch {
	case part.Totals != nil:
		return part.Totals[i], nil
	case part.Summary != nil:
		return part.Summary[i], nil
	}
	return part.SelfSum[i], nil
}

// Check reports an error wrapping ErrTotalMismatch if, for any event, the
// total that Total returns differs from the sum of self costs. Callgrind
// writes equal values; a difference means a corrupt or truncated file.
func (part *Part) Check() error {
	for _, e := range part.Events {
		want, err := part.Total(e)
		if err != nil {
			return err
		}
		i, _ := part.eventIndex(e)
		if got := part.SelfSum[i]; got != want {
			return fmt.Errorf("callgrind: part %d (line %d), event %s: total line says %d, self costs sum to %d (file truncated or corrupt?): %w",
				part.Number, part.Line, e, want, got, ErrTotalMismatch)
		}
	}
	return nil
}

// Total returns the file's total for event (usually "Ir"): the sum over
// all parts of Part.Total. Every part must have the event.
func (p *Profile) Total(event string) (uint64, error) {
	return p.sum(event, (*Part).Total)
}

// SelfTotal returns the sum over all parts of the self costs of event, as
// computed while parsing. It is the total of the pprof profile that
// Convert makes.
func (p *Profile) SelfTotal(event string) (uint64, error) {
	return p.sum(event, func(part *Part, e string) (uint64, error) {
		i, err := part.eventIndex(e)
		if err != nil {
			return 0, err
		}
		return part.SelfSum[i], nil
	})
}

func (p *Profile) sum(event string, f func(*Part, string) (uint64, error)) (uint64, error) {
	var total uint64
	for _, part := range p.Parts {
		v, err := f(part, event)
		if err != nil {
			return 0, err
		}
		var carry uint64
		total, carry = bits.Add64(total, v, 0)
		if carry != 0 {
			return 0, fmt.Errorf("callgrind: total of %s over all parts: %w", event, ErrOverflow)
		}
	}
	return total, nil
}

// Check runs Part.Check on every part and returns the first error.
func (p *Profile) Check() error {
	for _, part := range p.Parts {
		if err := part.Check(); err != nil {
			return err
		}
	}
	return nil
}

// Events returns the events of the first part. Callgrind gives every
// part of a file the same events, and Convert requires it.
func (p *Profile) Events() []string {
	if len(p.Parts) == 0 {
		return nil
	}
	return p.Parts[0].Events
}
