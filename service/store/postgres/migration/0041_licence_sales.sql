-- Licences sold per day, jurisdiction, species and fee line, kept by a
-- trigger as licences are written, so that the monthly report reads a
-- few thousand rows instead of joining a year of licences to their
-- animals.
CREATE TABLE licence_sales (
	day          DATE NOT NULL,
	jurisdiction TEXT NOT NULL,
	species      TEXT NOT NULL,
	fee_code     TEXT NOT NULL,
	count        BIGINT NOT NULL,
	cents        BIGINT NOT NULL,
	PRIMARY KEY (day, jurisdiction, species, fee_code)
);

INSERT INTO licence_sales (day, jurisdiction, species, fee_code, count, cents)
SELECT l.issued_on, l.jurisdiction, a.species, l.fee_code, COUNT(*), SUM(l.fee_cents)
FROM licences l JOIN animals a ON a.id = l.animal_id
GROUP BY 1, 2, 3, 4;

CREATE FUNCTION licence_sales_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
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

CREATE TRIGGER licences_sales AFTER INSERT OR DELETE ON licences
	FOR EACH ROW EXECUTE FUNCTION licence_sales_count();
