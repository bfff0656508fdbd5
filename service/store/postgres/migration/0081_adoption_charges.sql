-- A charge may be on a shelter adoption's agreement too: the
-- sterilisation deposit of Minneapolis 64.140(a)(2).
ALTER TABLE charges DROP CONSTRAINT charges_subject_kind_check;
ALTER TABLE charges ADD CONSTRAINT charges_subject_kind_check
	CHECK (subject_kind IN ('licence', 'impoundment', 'permit', 'adoption'));
