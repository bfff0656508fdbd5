package sqlite

import "github.com/chipdesk/chipdesk/service/store/columns"

// The column lists the record query (record.go) joins by their local
// names.
const (
	ownerCols       = columns.Owner
	animalCols      = columns.Animal
	chipCols        = columns.Chip
	licenceCols     = columns.Licence
	vaccinationCols = columns.Vaccination
	biteCols        = columns.Bite
	quarantineCols  = columns.Quarantine
	designationCols = columns.Designation
	impoundCols     = columns.Impound
)
