package main

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/chipdesk/chipdesk/internal/cmdline"
	"github.com/chipdesk/chipdesk/reader/chipid"
	"github.com/chipdesk/chipdesk/reader/iso11785"
)

const telegramUsage = `usage:
  chiptool telegram encode CODE15 [--not-animal] [--data-block] [--ext HEX6]
  chiptool telegram decode HEX32 [--locale LOCALE]

encode prints the 128-bit ISO 11785 FDX-B telegram of an ISO 11784 code as
32 hex digits, first bit on air = most significant bit; the animal flag is
set unless --not-animal. decode prints the fields of such a telegram as JSON
and exits 1 when it is invalid.`

func runTelegram(ctx context.Context, e *cmdline.Env, args []string) error {
	if len(args) == 0 {
		return cmdline.UsageError("missing encode or decode\n%s", telegramUsage)
	}
	switch args[0] {
	case "encode":
		return telegramEncode(e, args[1:])
	case "decode":
		return telegramDecode(e, args[1:])
	case "-h", "--help", "help":
		fmt.Fprintln(e.Stdout, telegramUsage)
		return nil
	}
	return cmdline.UsageError("unknown action %q\n%s", args[0], telegramUsage)
}

func telegramEncode(e *cmdline.Env, args []string) error {
	fs := flag.NewFlagSet("telegram encode", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	notAnimal := fs.Bool("not-animal", false, "clear the animal flag")
	dataBlock := fs.Bool("data-block", false, "set the data-block flag")
	extHex := fs.String("ext", "000000", "24-bit extension, hex")
	pos, err := cmdline.ParseArgs(fs, args)
	if err != nil {
		return cmdline.UsageError("%v\n%s", err, telegramUsage)
	}
	if len(pos) != 1 {
		return cmdline.UsageError("want one ISO 11784 code\n%s", telegramUsage)
	}
	ext, err := strconv.ParseUint(*extHex, 16, 32)
	if err != nil || ext > 0xffffff || *extHex == "" {
		return cmdline.UsageError("--ext %q: want up to 6 hex digits", *extHex)
	}
	id, err := chipid.Parse(pos[0], nil)
	if err != nil {
		return cmdline.Exit(1, err)
	}
	if id.Kind != chipid.KindISO {
		return cmdline.Exit(1, fmt.Errorf("%q is a %s code, not ISO 11784: no FDX-B telegram", pos[0], id.Kind))
	}
	code := id.ISO.ID15().WithAnimal(!*notAnimal).WithDataBlock(*dataBlock)
	t := iso11785.EncodeFDXB(code, uint32(ext))
	_, err = fmt.Fprintf(e.Stdout, "%X\n", t)
	return err
}

// telegramJSON is the decode output.
type telegramJSON struct {
	Code         string           `json:"code"`
	Display      string           `json:"display"`
	Country      uint16           `json:"country"`
	National     uint64           `json:"national"`
	Animal       bool             `json:"animal"`
	DataBlock    bool             `json:"data_block"`
	RUDI         bool             `json:"rudi"`
	RetagCounter uint8            `json:"retag_counter"`
	UserInfo     uint8            `json:"user_info"`
	Reserved     uint16           `json:"reserved"`
	ID64         string           `json:"id64"`
	Raw          string           `json:"raw_bitrev64"`
	Ext          string           `json:"ext"`
	CRC          string           `json:"crc"`
	CRCOK        bool             `json:"crc_ok"`
	CodeValid    bool             `json:"code_valid"`
	Manufacturer string           `json:"manufacturer,omitempty"`
	Temperature  *temperatureJSON `json:"temperature,omitempty"`
}

type temperatureJSON struct {
	Fahrenheit float64 `json:"fahrenheit"`
	Celsius    float64 `json:"celsius"`
}

func telegramDecode(e *cmdline.Env, args []string) error {
	fs := flag.NewFlagSet("telegram decode", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	locale := fs.String("locale", "en_US", "locale of the manufacturer name")
	pos, err := cmdline.ParseArgs(fs, args)
	if err != nil {
		return cmdline.UsageError("%v\n%s", err, telegramUsage)
	}
	if len(pos) == 0 {
		return cmdline.UsageError("want a telegram of 32 hex digits\n%s", telegramUsage)
	}
	h := strings.NewReplacer(" ", "", ":", "", "\t", "").Replace(strings.Join(pos, ""))
	b, err := hex.DecodeString(h)
	if err != nil || len(b) != 16 {
		return cmdline.Exit(1, fmt.Errorf("invalid telegram %q: want 32 hex digits (128 bits)", h))
	}
	t, derr := iso11785.DecodeFDXB([16]byte(b))
	if derr != nil && !errors.Is(derr, iso11785.ErrCRC) && !errors.Is(derr, iso11785.ErrInvalidCode) {
		return cmdline.Exit(1, fmt.Errorf("invalid telegram %s: %w", h, derr))
	}
	c := t.Code
	out := telegramJSON{
		Code: c.String(), Display: c.Display(), Country: c.Country(), National: c.National(),
		Animal: c.Animal(), DataBlock: c.DataBlock(), RUDI: c.RUDI(), RetagCounter: c.RetagCounter(),
		UserInfo: c.UserInfo(), Reserved: c.Reserved(),
		ID64: fmt.Sprintf("%016X", uint64(c)), Raw: fmt.Sprintf("%016X", c.Reversed()),
		Ext: fmt.Sprintf("%06X", t.Ext), CRC: fmt.Sprintf("%04X", t.CRC),
		CRCOK:     t.CRC == iso11785.CodeCRC(c),
		CodeValid: c.Valid() == nil,
	}
	if out.CodeValid {
		out.Manufacturer = chipid.FromISO(c).Manufacturer(*locale)
	}
	if f, ok := t.Temperature(); ok {
		out.Temperature = &temperatureJSON{Fahrenheit: f, Celsius: math.Round(iso11785.Celsius(f)*10) / 10}
	}
	j, err := json.Marshal(out)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(e.Stdout, "%s\n", j); err != nil {
		return err
	}
	if derr != nil {
		return cmdline.Exit(1, fmt.Errorf("invalid telegram %s: %w", h, derr))
	}
	return nil
}
