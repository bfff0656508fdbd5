-- A bulk load (Import, chipdesk migrate: chipdesk.bulk set for its
-- transaction, lookuprows.go) leaves the lookup rows, the licence sales
-- and the change sequence to its end, which builds them set-wise
-- (EndBulk, Import). The functions returned at once in a bulk load, but
-- each row still called one, and each COPY's statement trigger marked
-- every row it loaded: four fifths of a COPY's time. A trigger's WHEN is
-- checked without calling its function.

DROP TRIGGER lookup_rows_animals ON animals;
CREATE TRIGGER lookup_rows_animals AFTER INSERT OR UPDATE OR DELETE ON animals
	FOR EACH ROW WHEN (current_setting('chipdesk.bulk', true) IS DISTINCT FROM 'on')
	EXECUTE FUNCTION lookup_rows_animal();
DROP TRIGGER lookup_rows_owners ON owners;
CREATE TRIGGER lookup_rows_owners AFTER UPDATE OR DELETE ON owners
	FOR EACH ROW WHEN (current_setting('chipdesk.bulk', true) IS DISTINCT FROM 'on')
	EXECUTE FUNCTION lookup_rows_owner();
DROP TRIGGER lookup_rows_chips ON chips;
CREATE TRIGGER lookup_rows_chips AFTER INSERT OR UPDATE OR DELETE ON chips
	FOR EACH ROW WHEN (current_setting('chipdesk.bulk', true) IS DISTINCT FROM 'on')
	EXECUTE FUNCTION lookup_rows_by_animal_id();
DROP TRIGGER lookup_rows_vaccinations ON vaccinations;
CREATE TRIGGER lookup_rows_vaccinations AFTER INSERT OR UPDATE OR DELETE ON vaccinations
	FOR EACH ROW WHEN (current_setting('chipdesk.bulk', true) IS DISTINCT FROM 'on')
	EXECUTE FUNCTION lookup_rows_by_animal_id();
DROP TRIGGER lookup_rows_designations ON designations;
CREATE TRIGGER lookup_rows_designations AFTER INSERT OR UPDATE OR DELETE ON designations
	FOR EACH ROW WHEN (current_setting('chipdesk.bulk', true) IS DISTINCT FROM 'on')
	EXECUTE FUNCTION lookup_rows_by_animal_id();
DROP TRIGGER lookup_rows_quarantines ON quarantines;
CREATE TRIGGER lookup_rows_quarantines AFTER INSERT OR UPDATE OR DELETE ON quarantines
	FOR EACH ROW WHEN (current_setting('chipdesk.bulk', true) IS DISTINCT FROM 'on')
	EXECUTE FUNCTION lookup_rows_by_animal_id();
DROP TRIGGER lookup_rows_impoundments ON impoundments;
CREATE TRIGGER lookup_rows_impoundments AFTER INSERT OR UPDATE OR DELETE ON impoundments
	FOR EACH ROW WHEN (current_setting('chipdesk.bulk', true) IS DISTINCT FROM 'on')
	EXECUTE FUNCTION lookup_rows_by_animal_id();
DROP TRIGGER lookup_rows_bites ON bites;
CREATE TRIGGER lookup_rows_bites AFTER INSERT OR UPDATE OR DELETE ON bites
	FOR EACH ROW WHEN (current_setting('chipdesk.bulk', true) IS DISTINCT FROM 'on')
	EXECUTE FUNCTION lookup_rows_by_animal_id();
DROP TRIGGER licences_sales ON licences;
CREATE TRIGGER licences_sales AFTER INSERT OR DELETE ON licences
	FOR EACH ROW WHEN (current_setting('chipdesk.bulk', true) IS DISTINCT FROM 'on')
	EXECUTE FUNCTION licence_sales_count();
DROP TRIGGER animals_sync_ins ON animals;
CREATE TRIGGER animals_sync_ins AFTER INSERT ON animals REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT WHEN (current_setting('chipdesk.bulk', true) IS DISTINCT FROM 'on')
	EXECUTE FUNCTION sync_animals_ins();
DROP TRIGGER chips_sync_ins ON chips;
CREATE TRIGGER chips_sync_ins AFTER INSERT ON chips REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT WHEN (current_setting('chipdesk.bulk', true) IS DISTINCT FROM 'on')
	EXECUTE FUNCTION sync_by_animal_id_ins();
DROP TRIGGER licences_sync_ins ON licences;
CREATE TRIGGER licences_sync_ins AFTER INSERT ON licences REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT WHEN (current_setting('chipdesk.bulk', true) IS DISTINCT FROM 'on')
	EXECUTE FUNCTION sync_by_animal_id_ins();
DROP TRIGGER vaccinations_sync_ins ON vaccinations;
CREATE TRIGGER vaccinations_sync_ins AFTER INSERT ON vaccinations REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT WHEN (current_setting('chipdesk.bulk', true) IS DISTINCT FROM 'on')
	EXECUTE FUNCTION sync_by_animal_id_ins();
DROP TRIGGER designations_sync_ins ON designations;
CREATE TRIGGER designations_sync_ins AFTER INSERT ON designations REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT WHEN (current_setting('chipdesk.bulk', true) IS DISTINCT FROM 'on')
	EXECUTE FUNCTION sync_by_animal_id_ins();
DROP TRIGGER quarantines_sync_ins ON quarantines;
CREATE TRIGGER quarantines_sync_ins AFTER INSERT ON quarantines REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT WHEN (current_setting('chipdesk.bulk', true) IS DISTINCT FROM 'on')
	EXECUTE FUNCTION sync_by_animal_id_ins();
