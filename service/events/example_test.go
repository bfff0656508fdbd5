package events_test

import (
	"fmt"

	"github.com/chipdesk/chipdesk/service/events"
)

// Each desk subscribes to its own reader; a reconnecting client asks for
// what it missed since the last event id it saw.
func Example() {
	hub := events.New(nil)
	defer hub.Close()
	desk := hub.Subscribe("front-desk")
	defer desk.Close()

	hub.Publish("front-desk", []byte(`{"chip":"985121004515220"}`))
	hub.Publish("van-3", []byte(`{"chip":"982009104515221"}`))
	last := hub.Publish("front-desk", []byte(`{"chip":"900164000123456"}`))

	for range 2 {
		ev := <-desk.C()
		fmt.Println(ev.ID, ev.Reader, string(ev.Data))
	}
	again := hub.SubscribeSince("", last.ID-2)
	defer again.Close()
	for len(again.C()) > 0 {
		fmt.Println("replayed", (<-again.C()).ID)
	}
	// Output:
	// 1 front-desk {"chip":"985121004515220"}
	// 3 front-desk {"chip":"900164000123456"}
	// replayed 2
	// replayed 3
}
