package engravers

import (
	"reflect"
	"testing"

	"github.com/chipdesk/chipdesk/tags/toolpath"
)

func TestFromToolpath(t *testing.T) {
	t.Parallel()
	tj := &toolpath.Job{
		Width: 30, Height: 20,
		Cut:     []toolpath.Polyline{{{X: 0, Y: 0}, {X: 30, Y: 0}, {X: 30, Y: 20}, {X: 0, Y: 0}}},
		Outline: []toolpath.Polyline{{{X: 1, Y: 2}, {X: 5, Y: 2}}},
		Hatch:   []toolpath.Polyline{{{X: 1, Y: 19}, {X: 4, Y: 19}}},
	}
	want := []Path{
		{{X: 1, Y: 18}, {X: 5, Y: 18}}, // outline first, y flipped
		{{X: 1, Y: 1}, {X: 4, Y: 1}},   // then hatch
	}
	if got := FromToolpath(tj, false); !reflect.DeepEqual(got, want) {
		t.Errorf("FromToolpath(no cut) = %v, want %v", got, want)
	}
	got := FromToolpath(tj, true)
	if len(got) != 3 || !reflect.DeepEqual(got[2][1], Point{X: 30, Y: 20}) {
		t.Errorf("FromToolpath(cut) = %v, want the blank outline last, flipped", got)
	}
}
