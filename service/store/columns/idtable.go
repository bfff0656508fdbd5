package columns

import "github.com/chipdesk/chipdesk/service"

// CheckIDTable accepts the tables whose ids an import's references name
// (owners, animals, licences): the ones a store's MissingIDs checks in
// bulk. Both stores put the name into their SQL, so any other is refused
// here, before it gets there.
func CheckIDTable(table string) error {
	switch table {
	case "owners", "animals", "licences":
		return nil
	}
	return service.Errorf(service.EINVALID, "Unknown table %q.", table)
}
