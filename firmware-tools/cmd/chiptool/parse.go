package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/chipdesk/chipdesk/internal/cmdline"
	"github.com/chipdesk/chipdesk/reader/chipid"
)

const parseUsage = `usage: chiptool parse [--locale LOCALE] [--form FORM] [TEXT...]

Reads each TEXT (or each line of standard input when there is none) as a
chip number, the way readers and people write them, and prints one JSON
object per input: input, ok, kind, code, country and national (ISO),
animal (when the input carries the flag), manufacturer for the locale,
error and, for an ambiguous input ("ok": false), "candidates": one chip
object (kind, code, display, country, national, animal, manufacturer)
per reading the text could have. --form names the form the reader
writes (auto, decimal, hex64, hex64-air, fdxa, trovan, em4102), which
decides between readings. An input that is no chip number is reported in
its object ("ok": false); the exit status is 0 unless the command line or
reading fails.`

// parseJSON is one output line of chiptool parse.
type parseJSON struct {
	Input        string      `json:"input"`
	OK           bool        `json:"ok"`
	Kind         string      `json:"kind,omitempty"`
	Code         string      `json:"code,omitempty"`
	Display      string      `json:"display,omitempty"`
	Country      *uint16     `json:"country,omitempty"`
	National     *uint64     `json:"national,omitempty"`
	Animal       *bool       `json:"animal,omitempty"`
	Manufacturer string      `json:"manufacturer,omitempty"`
	Error        string      `json:"error,omitempty"`
	Candidates   []parseJSON `json:"candidates,omitempty"`
}

func describeChip(text, locale string, form chipid.Form) parseJSON {
	out := parseJSON{Input: text}
	id, err := chipid.Parse(text, &chipid.Opts{Locale: locale, Form: form})
	if err != nil {
		out.Error = err.Error()
		var ae *chipid.AmbiguousError
		if errors.As(err, &ae) {
			for _, c := range ae.Candidates {
				out.Candidates = append(out.Candidates, chipJSON(c, locale))
			}
		}
		return out
	}
	out = chipJSON(id, locale)
	out.Input = text
	out.OK = true
	return out
}

// chipJSON describes one chip: the object of a read, and of each
// candidate of an ambiguous text.
func chipJSON(id chipid.ID, locale string) parseJSON {
	var out parseJSON
	out.Kind = string(id.Kind)
	out.Code = id.Code
	out.Display = id.String()
	if id.Kind == chipid.KindISO {
		country, national := id.ISO.Country(), id.ISO.National()
		out.Country, out.National = &country, &national
	}
	if a, known := id.Animal(); known {
		out.Animal = &a
	}
	out.Manufacturer = id.Manufacturer(locale)
	return out
}

func runParse(ctx context.Context, e *cmdline.Env, args []string) error {
	fs := flag.NewFlagSet("parse", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	locale := fs.String("locale", "en_US", "locale of the manufacturer names (en_US, en_GB, en_AU, ...)")
	formName := fs.String("form", "auto", "the form the reader writes")
	texts, ok, err := cmdline.ParseCommand(e, fs, args, parseUsage)
	if !ok {
		return err
	}
	form, err := chipid.ParseForm(*formName)
	if err != nil {
		return cmdline.UsageError("%v", err)
	}
	enc := json.NewEncoder(e.Stdout)
	enc.SetEscapeHTML(false)
	one := func(text string) error { return enc.Encode(describeChip(text, *locale, form)) }
	if len(texts) > 0 {
		for _, t := range texts {
			if err := one(t); err != nil {
				return err
			}
		}
	} else {
		sc := bufio.NewScanner(e.Stdin)
		for sc.Scan() {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := one(sc.Text()); err != nil {
				return err
			}
		}
		if err := sc.Err(); err != nil {
			return fmt.Errorf("reading standard input: %w", err)
		}
	}
	return nil
}
