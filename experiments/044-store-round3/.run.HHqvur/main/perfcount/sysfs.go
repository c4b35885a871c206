package perfcount

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Named events come from the kernel's description of each PMU under
// /sys/bus/event_source/devices/<pmu>/: "type" holds the attr.type to use,
// "events/<name>" a term list such as "event=0x08", and "format/<term>" the
// bits of attr.config (or config1, config2) that each term fills, such as
// "config:0-7". This is how armv8 names like INST_RETIRED are resolved.

func devicesDir(root string) string {
	return filepath.Join(root, "sys/bus/event_source/devices")
}

// PMUEvent is one named event a PMU lists in
// /sys/bus/event_source/devices/<pmu>/events, resolved.
type PMUEvent struct {
	// PMU is the event source's directory name, such as armv8_cortex_a76.
	PMU string
	// Name is the event file's name, such as inst_retired.
	Name string
	// Terms is the file's content as the kernel writes it, such as
	// "event=0x0008": the raw code in the PMU's own terms.
	Terms string
	// Event is the event resolved for perf_event_open (Name is spelled
	// pmu/name/).
	Event Event
}

// PMUEvents lists the named events of this machine's PMUs, sorted by PMU
// and then by name. An event whose terms cannot be resolved is returned
// with the error of the first such event, beside the others.
func PMUEvents() ([]PMUEvent, error) { return pmuEvents(sysRoot) }

func pmuEvents(root string) ([]PMUEvent, error) {
	ents, err := os.ReadDir(devicesDir(root))
	if err != nil {
		return nil, fmt.Errorf("listing PMUs: %w", err)
	}
	var out []PMUEvent
	var first error
	for _, d := range ents { // ReadDir sorts by name
		dir := filepath.Join(devicesDir(root), d.Name(), "events")
		evs, err := os.ReadDir(dir)
		if err != nil {
			continue // a PMU without named events (software, breakpoint, ...)
		}
		for _, ev := range evs {
			if ev.IsDir() || strings.HasSuffix(ev.Name(), ".scale") || strings.HasSuffix(ev.Name(), ".unit") {
				continue // x86 PMUs describe some events with .scale and .unit files
			}
			b, err := os.ReadFile(filepath.Join(dir, ev.Name()))
			if err != nil {
				continue
			}
			e, err := sysfsEvent(root, d.Name(), ev.Name())
			if err != nil {
				if first == nil {
					first = err
				}
				continue
			}
			e.Name = d.Name() + "/" + ev.Name() + "/"
			out = append(out, PMUEvent{PMU: d.Name(), Name: ev.Name(), Terms: strings.TrimSpace(string(b)), Event: e})
		}
	}
	return out, first
}

// sysfsLookup finds an event by name in any PMU's events directory. Names
// are matched case-insensitively; PMUs are searched in sorted order.
func sysfsLookup(root, name string) (Event, error) {
	ents, _ := os.ReadDir(devicesDir(root))
	var pmus []string
	for _, d := range ents {
		pmus = append(pmus, d.Name())
		evs, err := os.ReadDir(filepath.Join(devicesDir(root), d.Name(), "events"))
		if err != nil {
			continue
		}
		for _, ev := range evs {
			if strings.EqualFold(ev.Name(), name) {
				return sysfsEvent(root, d.Name(), ev.Name())
			}
		}
	}
	return Event{}, fmt.Errorf("%w: %q is not a generic event (see `pure-count events`), not a raw event rNNNN, and no PMU here lists it in %s/*/events (PMUs: %s)",
		ErrUnknownEvent, name, devicesDir("/"), strings.Join(pmus, ", "))
}

// sysfsEvent resolves pmu/terms/, where terms is an event name listed by
// that PMU or a comma-separated list of term=value.
func sysfsEvent(root, pmu, terms string) (Event, error) {
	dir := filepath.Join(devicesDir(root), pmu)
	typ, err := readUint(filepath.Join(dir, "type"))
	if err != nil {
		return Event{}, fmt.Errorf("%w: PMU %q: %v (is it listed in %s?)", ErrUnknownEvent, pmu, err, devicesDir("/"))
	}
	e := Event{Type: uint32(typ), PMU: pmu}
	if err := applyTerms(dir, &e, terms, 0); err != nil {
		return Event{}, fmt.Errorf("%w: %s/%s/: %v", ErrUnknownEvent, pmu, terms, err)
	}
	return e, nil
}

func applyTerms(dir string, e *Event, terms string, depth int) error {
	if depth > 2 {
		return fmt.Errorf("event aliases nest too deeply")
	}
	for _, term := range strings.Split(terms, ",") {
		term = strings.TrimSpace(term)
		if term == "" {
			continue
		}
		key, val, hasVal := strings.Cut(term, "=")
		if !hasVal {
			// An event name of this PMU, expanded to its own terms.
			if b, err := os.ReadFile(filepath.Join(dir, "events", key)); err == nil {
				if err := applyTerms(dir, e, strings.TrimSpace(string(b)), depth+1); err != nil {
					return err
				}
				continue
			}
			val = "1"
		}
		v, err := strconv.ParseUint(strings.TrimSpace(val), 0, 64)
		if err != nil {
			return fmt.Errorf("term %q: value %q is not a number", term, val)
		}
		switch key {
		case "config":
			e.Config = v
			continue
		case "config1":
			e.Config1 = v
			continue
		case "config2":
			e.Config2 = v
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, "format", key))
		if err != nil {
			return fmt.Errorf("term %q: this PMU has no format/%s", term, key)
		}
		if err := setBits(e, strings.TrimSpace(string(b)), v); err != nil {
			return fmt.Errorf("term %q: %v", term, err)
		}
	}
	return nil
}

// setBits places v into the bit ranges a format file names, for example
// "config:0-7,21" or "config1:0-15", lowest bits of v first.
func setBits(e *Event, format string, v uint64) error {
	field, ranges, ok := strings.Cut(format, ":")
	if !ok {
		return fmt.Errorf("format %q: want field:bits", format)
	}
	var dst *uint64
	switch field {
	case "config":
		dst = &e.Config
	case "config1":
		dst = &e.Config1
	case "config2":
		dst = &e.Config2
	default:
		return fmt.Errorf("format %q: unknown field %q", format, field)
	}
	for _, r := range strings.Split(ranges, ",") {
		lo, hi, isRange := strings.Cut(r, "-")
		if !isRange {
			hi = lo
		}
		l, err1 := strconv.Atoi(lo)
		h, err2 := strconv.Atoi(hi)
		if err1 != nil || err2 != nil || l < 0 || h > 63 || l > h {
			return fmt.Errorf("format %q: bad bit range %q", format, r)
		}
		for b := l; b <= h; b++ {
			if v&1 != 0 {
				*dst |= 1 << uint(b)
			}
			v >>= 1
		}
	}
	if v != 0 {
		return fmt.Errorf("value does not fit the bits of format %q", format)
	}
	return nil
}

func readUint(path string) (uint64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	return strconv.ParseUint(strings.TrimSpace(string(b)), 0, 64)
}

func sortStrings(s []string) { sort.Strings(s) }
