package tags

import (
	"testing"

	"github.com/chipdesk/chipdesk/tags/check"
)

func benchTag(b *testing.B) (*Renderer, *Tag) {
	c, r := catalogue(b), renderer(b)
	tag, err := c.Issue(check.DevelopmentKeys(), "MPLS", 2026, 123456, "dog")
	if err != nil {
		b.Fatal(err)
	}
	return r, tag
}

// BenchmarkZPL: one tag to ZPL (target at most 1 ms).
func BenchmarkZPL(b *testing.B) {
	r, tag := benchTag(b)
	for b.Loop() {
		if _, err := r.ZPL(tag, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPaths: one tag to engraving paths (target at most 20 ms).
func BenchmarkPaths(b *testing.B) {
	r, tag := benchTag(b)
	for b.Loop() {
		if _, err := r.Paths(tag); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkImage300: one preview at 300 dpi.
func BenchmarkImage300(b *testing.B) {
	r, tag := benchTag(b)
	for b.Loop() {
		if _, err := r.Image(tag, 300); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBatch1000: 1,000 tags issued, laid out on 300x200 mm plates
// and turned into engraving paths (target at most 10 s).
func BenchmarkBatch1000(b *testing.B) {
	c, r := catalogue(b), renderer(b)
	keys := check.DevelopmentKeys()
	for b.Loop() {
		tags := make([]*Tag, 0, 1000)
		for n := 1; n <= 1000; n++ {
			tag, err := c.Issue(keys, "CHAN", 2027, n, "dog")
			if err != nil {
				b.Fatal(err)
			}
			tags = append(tags, tag)
		}
		sheets, err := Layout{Width: 300, Height: 200, Margin: 5, Gap: 2}.Place(tags)
		if err != nil {
			b.Fatal(err)
		}
		for _, s := range sheets {
			if _, err := r.SheetPaths(s); err != nil {
				b.Fatal(err)
			}
		}
	}
}
