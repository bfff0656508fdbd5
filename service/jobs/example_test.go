package jobs_test

import (
	"fmt"

	"github.com/chipdesk/chipdesk/service/jobs"
)

func ExampleParseSpec() {
	sp, err := jobs.ParseSpec("grbl:/dev/ttyUSB0,power=0.6,plate=300x200,name=office-laser")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(sp.Name, sp.JobKind(), sp.Power, sp.Speed, sp.PlateW, sp.PlateH)
	fmt.Println(sp)
	// Output:
	// office-laser engrave 0.6 600 300 200
	// grbl:/dev/ttyUSB0,name=office-laser,power=0.6,plate=300x200
}
