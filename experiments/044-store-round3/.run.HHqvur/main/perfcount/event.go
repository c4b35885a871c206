package perfcount

import (
	"fmt"
	"strconv"
	"strings"
)

// Kinds of perf_event types (the attr.type field) used by this package.
const (
	typeHardware = 0
	typeSoftware = 1
	typeHWCache  = 3
	typeRaw      = 4
)

// Event is one countable event, resolved to what perf_event_open needs.
type Event struct {
	// Name is the event as the user spelled it, modifiers included.
	Name string
	// Type, Config, Config1 and Config2 are the perf_event_attr fields.
	Type    uint32
	Config  uint64
	Config1 uint64
	Config2 uint64
	// ExcludeUser and ExcludeKernel come from the :u and :k modifiers.
	ExcludeUser   bool
	ExcludeKernel bool
	// PMU is the event source that counts it: "cpu" for generic hardware
	// events, "software" for software events, or a sysfs PMU name.
	PMU string
}

// NeedsPMU reports whether the event is counted by hardware (a PMU) rather
// than by the kernel's software clocks and counters.
func (e Event) NeedsPMU() bool { return e.PMU != "software" }

type generic struct {
	typ    uint32
	config uint64
}

// genericEvents are the events every Linux kernel names the same way, as
// perf spells them. On armv8 the kernel maps instructions to INST_RETIRED and
// cycles to CPU_CYCLES.
var genericEvents = map[string]generic{
	"instructions":        {typeHardware, 1},
	"cycles":              {typeHardware, 0},
	"cpu-cycles":          {typeHardware, 0},
	"cache-references":    {typeHardware, 2},
	"cache-misses":        {typeHardware, 3},
	"branches":            {typeHardware, 4},
	"branch-instructions": {typeHardware, 4},
	"branch-misses":       {typeHardware, 5},
	"bus-cycles":          {typeHardware, 6},
	"ref-cycles":          {typeHardware, 9},
	"cpu-clock":           {typeSoftware, 0},
	"task-clock":          {typeSoftware, 1},
	"page-faults":         {typeSoftware, 2},
	"faults":              {typeSoftware, 2},
	"context-switches":    {typeSoftware, 3},
	"cs":                  {typeSoftware, 3},
	"cpu-migrations":      {typeSoftware, 4},
	"migrations":          {typeSoftware, 4},
	"minor-faults":        {typeSoftware, 5},
	"major-faults":        {typeSoftware, 6},
}

// GenericEvents lists the generic event names ParseEvents accepts, sorted.
func GenericEvents() []string {
	names := make([]string, 0, len(genericEvents))
	for n := range genericEvents {
		names = append(names, n)
	}
	sortStrings(names)
	return names
}

// ParseEvents parses a comma-separated event list as perf spells it:
//
//	instructions,cycles:u,task-clock     generic events, :u / :k modifiers
//	r00c0                                a raw hardware event (hex config)
//	inst_retired, armv8_cortex_a76/inst_retired/, cpu/event=0xc0,umask=0/
//	                                     events read from
//	                                     /sys/bus/event_source/devices/*/events
//
// Commas inside a pmu/.../ term list do not split events.
func ParseEvents(spec string) ([]Event, error) {
	if strings.TrimSpace(spec) == "" {
		return nil, fmt.Errorf("empty event list: name at least one event, for example -e instructions")
	}
	var evs []Event
	for _, name := range splitEvents(spec) {
		e, err := parseEvent(name)
		if err != nil {
			return nil, err
		}
		evs = append(evs, e)
	}
	return evs, nil
}

// MustParseEvents is ParseEvents for constant lists; it panics on error.
func MustParseEvents(spec string) []Event {
	evs, err := ParseEvents(spec)
	if err != nil {
		panic(err)
	}
	return evs
}

func splitEvents(spec string) []string {
	var out []string
	depth, start := false, 0
	for i := 0; i < len(spec); i++ {
		switch spec[i] {
		case '/':
			depth = !depth
		case ',':
			if !depth {
				out = append(out, strings.TrimSpace(spec[start:i]))
				start = i + 1
			}
		}
	}
	return append(out, strings.TrimSpace(spec[start:]))
}

func parseEvent(spelled string) (Event, error) {
	if spelled == "" {
		return Event{}, fmt.Errorf("%w: empty name in event list (a stray comma?)", ErrUnknownEvent)
	}
	base, mods := spelled, ""
	if i := strings.LastIndexByte(spelled, ':'); i >= 0 && !strings.Contains(spelled[i:], "/") {
		base, mods = spelled[:i], spelled[i+1:]
	}
	e, err := resolve(base)
	if err != nil {
		return Event{}, err
	}
	e.Name = spelled
	for _, m := range mods {
		switch m {
		case 'u':
		case 'k':
		default:
			return Event{}, fmt.Errorf("%w: modifier %q in %q: only :u (user) and :k (kernel) are supported", ErrUnknownEvent, m, spelled)
		}
	}
	if mods != "" {
		e.ExcludeUser = !strings.ContainsRune(mods, 'u')
		e.ExcludeKernel = !strings.ContainsRune(mods, 'k')
	}
	return e, nil
}

func resolve(base string) (Event, error) {
	lower := strings.ToLower(base)
	if g, ok := genericEvents[lower]; ok {
		pmu := "cpu"
		if g.typ == typeSoftware {
			pmu = "software"
		}
		return Event{Type: g.typ, Config: g.config, PMU: pmu}, nil
	}
	if len(base) > 1 && base[0] == 'r' && isHex(base[1:]) {
		cfg, err := strconv.ParseUint(base[1:], 16, 64)
		if err != nil {
			return Event{}, fmt.Errorf("%w: raw event %q: %v", ErrUnknownEvent, base, err)
		}
		return Event{Type: typeRaw, Config: cfg, PMU: "cpu"}, nil
	}
	if pmu, rest, ok := strings.Cut(base, "/"); ok {
		terms, ok := strings.CutSuffix(rest, "/")
		if !ok {
			return Event{}, fmt.Errorf("%w: %q: a PMU event is written pmu/event/ or pmu/term=value,.../", ErrUnknownEvent, base)
		}
		return sysfsEvent(sysRoot, pmu, terms)
	}
	return sysfsLookup(sysRoot, lower)
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return s != ""
}

func eventNames(evs []Event) string {
	names := make([]string, len(evs))
	for i, e := range evs {
		names[i] = e.Name
	}
	return strings.Join(names, ",")
}
