package sqlite

import (
	"context"
	"database/sql"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/columns"
	"github.com/chipdesk/chipdesk/service/store/filter"
)

func scanAnimal(r rowScanner, extra ...any) (*service.Animal, error) {
	return scanRow(r, columns.AnimalDest, extra)
}

func nullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

// FindAnimalByID implements service.AnimalService.
func (db *DB) FindAnimalByID(ctx context.Context, id int64) (*service.Animal, error) {
	return findByID(ctx, db, "animals", columns.Animal, "Animal", id, scanAnimal)
}

// FindAnimals implements service.AnimalService.
func (db *DB) FindAnimals(ctx context.Context, f service.AnimalFilter) ([]*service.Animal, int, error) {
	return findPage(ctx, db.rdb, "animals", columns.Animal, "id", "Animal", filter.Animals(f), f.Offset, f.Limit, scanAnimal)
}

// CreateAnimal implements service.AnimalService.
func (db *DB) CreateAnimal(ctx context.Context, a *service.Animal) error {
	if err := a.Validate(); err != nil {
		return err
	}
	return db.write(ctx, func(tx *sql.Tx, now time.Time) error {
		if err := insertAnimal(ctx, tx, a, now); err != nil {
			return err
		}
		return putIdempotency(ctx, tx, now, a)
	})
}

const insertAnimalSQL = `INSERT INTO animals (` + columns.Animal + `) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) RETURNING id`

func insertAnimal(ctx context.Context, tx *sql.Tx, a *service.Animal, now time.Time) error {
	a.CreatedAt, a.UpdatedAt = now, now
	err := tx.QueryRowContext(ctx, insertAnimalSQL, animalArgs(a)...).Scan(&a.ID)
	service.Created(ctx, "animals", a.ID)
	return mapErr(err, "Animal")
}

func animalArgs(a *service.Animal) []any {
	return []any{nullID(a.ID), nullID(a.OwnerID), a.Name, a.Species, a.Breed, a.Colour, a.Sex, a.Altered, a.BirthDate,
		a.Description, a.Photo, a.Programme, a.DiedOn, formatStamp(a.CreatedAt), formatStamp(a.UpdatedAt)}
}

// UpdateAnimal implements service.AnimalService.
func (db *DB) UpdateAnimal(ctx context.Context, id int64, u service.AnimalUpdate) (*service.Animal, error) {
	return updateRow(ctx, db, "animals", columns.Animal, "Animal", id, scanAnimal, func(tx *sql.Tx, now time.Time, a *service.Animal) error {
		if err := a.Apply(u); err != nil {
			return err
		}
		a.UpdatedAt = now
		_, err := tx.ExecContext(ctx, `UPDATE animals SET owner_id=?, name=?, species=?, breed=?, colour=?, sex=?, altered=?, birth_date=?,
			description=?, photo=?, programme=?, died_on=?, updated_at=? WHERE id=?`,
			nullID(a.OwnerID), a.Name, a.Species, a.Breed, a.Colour, a.Sex, a.Altered, a.BirthDate,
			a.Description, a.Photo, a.Programme, a.DiedOn, formatStamp(now), id)
		return mapErr(err, "Animal")
	})
}

func scanChip(r rowScanner, extra ...any) (*service.Chip, error) {
	return scanRow(r, columns.ChipDest, extra)
}

// AddChip implements service.AnimalService.
func (db *DB) AddChip(ctx context.Context, c *service.Chip) error {
	if err := c.Validate(); err != nil {
		return err
	}
	return db.write(ctx, func(tx *sql.Tx, now time.Time) error {
		return insertChip(ctx, tx, c, now)
	})
}

const insertChipSQL = `INSERT INTO chips (` + columns.Chip + `) VALUES (?,?,?,?,?,?,?) RETURNING id`

func insertChip(ctx context.Context, tx *sql.Tx, c *service.Chip, now time.Time) error {
	c.CreatedAt = now
	err := tx.QueryRowContext(ctx, insertChipSQL, chipArgs(c)...).Scan(&c.ID)
	return mapErr(err, "Chip")
}

func chipArgs(c *service.Chip) []any {
	return []any{nullID(c.ID), c.AnimalID, c.Code, c.Kind, c.Manufacturer, c.ImplantDate, formatStamp(c.CreatedAt)}
}

// RemoveChip implements service.AnimalService.
func (db *DB) RemoveChip(ctx context.Context, id int64) error {
	return db.write(ctx, func(tx *sql.Tx, _ time.Time) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM chips WHERE id = ?`, id)
		if err != nil {
			return mapErr(err, "Chip")
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return service.Errorf(service.ENOTFOUND, "Chip not found.")
		}
		return nil
	})
}

// FindChipsByAnimal implements service.AnimalService.
func (db *DB) FindChipsByAnimal(ctx context.Context, animalID int64) ([]*service.Chip, error) {
	out, err := collect(ctx, db.rdb, scanChip, `SELECT `+columns.Chip+` FROM chips WHERE animal_id = ? ORDER BY id`, animalID)
	return out, mapErr(err, "Chip")
}
