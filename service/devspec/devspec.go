package devspec

import (
	"errors"
	"fmt"
	"strings"
)

// Errors of Parse; both are returned wrapped, naming the offending part.
var (
	// ErrForm is a spec without a kind or an address.
	ErrForm = errors.New("devspec: want KIND:ADDRESS[,option=value...]")
	// ErrOption is an option without a name or a value.
	ErrOption = errors.New("devspec: want option=value")
)

// Option is one option=value of a spec.
type Option struct {
	Key, Value string
}

// Spec is a device spec split into its parts.
type Spec struct {
	Kind string
	Addr string
	// Options are in the order given.
	Options []Option
}

// Parse splits s, KIND:ADDRESS[,option=value...]. Kind, address, option
// names and values must not be empty; a lone trailing comma
// ("zpl:10.0.0.1,") gives no options.
func Parse(s string) (Spec, error) {
	head, opts, _ := strings.Cut(s, ",")
	kind, addr, ok := strings.Cut(head, ":")
	if !ok || kind == "" || addr == "" {
		return Spec{}, ErrForm
	}
	sp := Spec{Kind: kind, Addr: addr}
	if opts == "" {
		return sp, nil
	}
	for _, kv := range strings.Split(opts, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" || v == "" {
			return Spec{}, fmt.Errorf("%w: option %q", ErrOption, kv)
		}
		sp.Options = append(sp.Options, Option{Key: k, Value: v})
	}
	return sp, nil
}

// Head is KIND:ADDRESS, a device's name unless an option gives another.
func (sp Spec) Head() string { return sp.Kind + ":" + sp.Addr }

// String returns the spec in the form Parse reads.
func (sp Spec) String() string {
	var b strings.Builder
	b.WriteString(sp.Head())
	for _, o := range sp.Options {
		b.WriteString("," + o.Key + "=" + o.Value)
	}
	return b.String()
}
