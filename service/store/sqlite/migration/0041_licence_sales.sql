-- Licences sold per day, jurisdiction, species and fee line, kept by
-- triggers as licences are written, so that the monthly report reads a
-- few thousand rows instead of joining a year of licences to their
-- animals (a million of them: 34 s joined, a few ms from here).
CREATE TABLE licence_sales (
	day          TEXT NOT NULL,
	jurisdiction TEXT NOT NULL,
	species      TEXT NOT NULL,
	fee_code     TEXT NOT NULL,
	count        INTEGER NOT NULL,
	cents        INTEGER NOT NULL,
	PRIMARY KEY (day, jurisdiction, species, fee_code)
) WITHOUT ROWID;

INSERT INTO licence_sales (day, jurisdiction, species, fee_code, count, cents)
SELECT l.issued_on, l.jurisdiction, a.species, l.fee_code, COUNT(*), SUM(l.fee_cents)
FROM licences l JOIN animals a ON a.id = l.animal_id
GROUP BY 1, 2, 3, 4;

CREATE TRIGGER licences_sales_insert AFTER INSERT ON licences BEGIN
	INSERT INTO licence_sales (day, jurisdiction, species, fee_code, count, cents)
	SELECT NEW.issued_on, NEW.jurisdiction, a.species, NEW.fee_code, 1, NEW.fee_cents FROM animals a WHERE a.id = NEW.animal_id
	ON CONFLICT (day, jurisdiction, species, fee_code) DO UPDATE SET count = count + 1, cents = cents + excluded.cents;
END;

CREATE TRIGGER licences_sales_delete AFTER DELETE ON licences BEGIN
	UPDATE licence_sales SET count = count - 1, cents = cents - OLD.fee_cents
	WHERE day = OLD.issued_on AND jurisdiction = OLD.jurisdiction AND fee_code = OLD.fee_code
		AND species = (SELECT species FROM animals WHERE id = OLD.animal_id);
END;
