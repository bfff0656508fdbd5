package main

import "github.com/chipdesk/chipdesk/internal/cmdline"

func commands() []cmdline.Command {
	return []cmdline.Command{
		{Name: "telegram", Summary: "encode and decode ISO 11785 FDX-B telegrams", Run: runTelegram},
		{Name: "parse", Summary: "parse chip numbers as readers and people write them", Run: runParse},
		{Name: "trace", Summary: "decode raw antenna captures (.pm3) and synthesise them", Run: runTrace},
		{Name: "usb", Summary: "list USB devices, read wedge scanners, query printers, print udev rules", Run: runUSB},
		{Name: "sim", Summary: "simulate a microchip reader on a pseudo-terminal", Run: runSim},
		{Name: "input", Summary: "list keyboard-wedge scanners on the Linux input subsystem", Run: runInput},
		{Name: "ports", Summary: "list serial ports with their USB ids and adapters", Run: runPorts},
		{Name: "probe", Summary: "tell which reader protocol answers on a serial port", Run: runProbe},
		{Name: "identify", Summary: "say which reader family and line settings a scanner on a port has", Run: runIdentify},
		{Name: "tail", Summary: "print the chip reads of a reader as JSON lines", Run: runTail},
		{Name: "config", Summary: "show and change reader settings (firmware: vendor tool)", Run: runConfig},
	}
}

func main() { cmdline.Main("chiptool", commands()) }
