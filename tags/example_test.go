package tags_test

import (
	"fmt"
	"log"

	"github.com/chipdesk/chipdesk/tags"
	"github.com/chipdesk/chipdesk/tags/check"
)

func Example() {
	designs, err := tags.LoadDesigns("") // built-in designs only
	if err != nil {
		log.Fatal(err)
	}
	keys := check.DevelopmentKeys() // demos only: real keys come from check.LoadKeys
	tag, err := designs.Issue(keys, "MPLS", 2026, 1234, "dog")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(tag)
	fmt.Println(tag.Design.Shape, tag.Design.Metal.Name)
	fmt.Println(tag.CodeText(), tag.LinearText())

	r, err := tags.NewRenderer(nil)
	if err != nil {
		log.Fatal(err)
	}
	img, _ := r.Image(tag, 300)
	fmt.Println("preview", img.Bounds().Dx(), "x", img.Bounds().Dy(), "px")

	_, err = designs.Issue(keys, "MPLS", 2031, 1, "dog")
	fmt.Println(err)
	// Output:
	// MPLS 2026 licence 001234 (dog)
	// circle blue anodised aluminium
	// MPLS26-001234-91BP3 2026001234
	// preview 378 x 378 px
	// tags: no valid design for MPLS 2031
}
