package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/columns"
	"github.com/chipdesk/chipdesk/service/store/filter"
)

var insertAnimalSQL = insertSQL("animals", columns.Animal)

func scanAnimal(r rowScanner, extra ...any) (*service.Animal, error) {
	return scanRow(r, columns.AnimalDest, extra)
}

func animalArgs(a *service.Animal) []any {
	return []any{nullID(a.OwnerID), a.Name, a.Species, a.Breed, a.Colour, a.Sex, a.Altered, pdate(a.BirthDate),
		a.Description, a.Photo, a.Programme, pdate(a.DiedOn), pstamp(a.CreatedAt), pstamp(a.UpdatedAt)}
}

// FindAnimalByID implements service.AnimalService.
func (db *DB) FindAnimalByID(ctx context.Context, id int64) (*service.Animal, error) {
	return findByID(ctx, db, "animals", columns.Animal, "Animal", id, scanAnimal)
}

// FindAnimals implements service.AnimalService.
func (db *DB) FindAnimals(ctx context.Context, f service.AnimalFilter) ([]*service.Animal, int, error) {
	return findPage(ctx, db, "animals", columns.Animal, "id", "Animal", filter.Animals(f), f.Offset, f.Limit, scanAnimal)
}

// CreateAnimal implements service.AnimalService.
func (db *DB) CreateAnimal(ctx context.Context, a *service.Animal) error {
	if err := a.Validate(); err != nil {
		return err
	}
	return db.createKeyed(ctx, "animals", "Animal", insertAnimalSQL, &a.ID, a, func(now time.Time) []any {
		a.CreatedAt, a.UpdatedAt = now, now
		return animalArgs(a)
	})
}

// UpdateAnimal implements service.AnimalService.
func (db *DB) UpdateAnimal(ctx context.Context, id int64, u service.AnimalUpdate) (*service.Animal, error) {
	return updateRow(ctx, db, "animals", columns.Animal, "Animal", id, scanAnimal, func(tx pgx.Tx, now time.Time, a *service.Animal) error {
		if err := a.Apply(u); err != nil {
			return err
		}
		a.UpdatedAt = now
		_, err := tx.Exec(ctx, `UPDATE animals SET owner_id=$1, name=$2, species=$3, breed=$4, colour=$5, sex=$6, altered=$7,
			birth_date=$8, description=$9, photo=$10, programme=$11, died_on=$12, updated_at=$13 WHERE id=$14`,
			nullID(a.OwnerID), a.Name, a.Species, a.Breed, a.Colour, a.Sex, a.Altered, pdate(a.BirthDate),
			a.Description, a.Photo, a.Programme, pdate(a.DiedOn), now, id)
		return mapErr(err, "Animal")
	})
}

var insertChipSQL = insertSQL("chips", columns.Chip)

func scanChip(r rowScanner, extra ...any) (*service.Chip, error) {
	return scanRow(r, columns.ChipDest, extra)
}

func chipArgs(c *service.Chip) []any {
	return []any{c.AnimalID, c.Code, c.Kind, c.Manufacturer, pdate(c.ImplantDate), pstamp(c.CreatedAt)}
}

// AddChip implements service.AnimalService.
func (db *DB) AddChip(ctx context.Context, c *service.Chip) error {
	if err := c.Validate(); err != nil {
		return err
	}
	return db.write(ctx, func(tx pgx.Tx, now time.Time) error {
		c.CreatedAt = now
		return insertRow(ctx, tx, "chips", &c.ID, "Chip", insertChipSQL, chipArgs(c)...)
	})
}

// RemoveChip implements service.AnimalService.
func (db *DB) RemoveChip(ctx context.Context, id int64) error {
	return db.write(ctx, func(tx pgx.Tx, now time.Time) error {
		tag, err := tx.Exec(ctx, `DELETE FROM chips WHERE id = $1`, id)
		if err != nil {
			return mapErr(err, "Chip")
		}
		if tag.RowsAffected() == 0 {
			return service.Errorf(service.ENOTFOUND, "Chip not found.")
		}
		return nil
	})
}

// FindChipsByAnimal implements service.AnimalService.
func (db *DB) FindChipsByAnimal(ctx context.Context, animalID int64) ([]*service.Chip, error) {
	out, err := collect(ctx, db.pool, scanChip, `SELECT `+columns.Chip+` FROM chips WHERE animal_id = $1 ORDER BY id`, animalID)
	return out, mapErr(err, "Chip")
}
