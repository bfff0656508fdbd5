package usbport

import "sort"

func sortEndpoints(e []EndpointDesc) {
	sort.Slice(e, func(i, j int) bool { return e[i].Address < e[j].Address })
}

func sortInterfaces(i []InterfaceDesc) {
	sort.Slice(i, func(a, b int) bool {
		if i[a].Number != i[b].Number {
			return i[a].Number < i[b].Number
		}
		return i[a].Alt < i[b].Alt
	})
}
