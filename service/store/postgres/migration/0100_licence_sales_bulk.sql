-- A bulk load (Import, chipdesk migrate: chipdesk.bulk set for its
-- transaction, lookuprows.go) counts its licences' sales set-wise at the
-- end (bulk.go: addLicenceSales, EndBulk), not row by row: a million
-- licences bumped a few thousand counter rows a million times, each
-- bump a new version of a row already updated in the same transaction.
CREATE OR REPLACE FUNCTION licence_sales_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF current_setting('chipdesk.bulk', true) = 'on' THEN
		RETURN NULL;
	END IF;
	IF TG_OP = 'INSERT' THEN
		INSERT INTO licence_sales (day, jurisdiction, species, fee_code, count, cents)
		SELECT NEW.issued_on, NEW.jurisdiction, a.species, NEW.fee_code, 1, NEW.fee_cents FROM animals a WHERE a.id = NEW.animal_id
		ON CONFLICT (day, jurisdiction, species, fee_code)
		DO UPDATE SET count = licence_sales.count + 1, cents = licence_sales.cents + excluded.cents;
		RETURN NEW;
	END IF;
	UPDATE licence_sales SET count = count - 1, cents = cents - OLD.fee_cents
	WHERE day = OLD.issued_on AND jurisdiction = OLD.jurisdiction AND fee_code = OLD.fee_code
		AND species = (SELECT species FROM animals WHERE id = OLD.animal_id);
	RETURN OLD;
END
$$;
