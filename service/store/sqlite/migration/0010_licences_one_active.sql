-- At most one active licence per animal, jurisdiction, kind and term
-- (the term is named by its expiry date): twenty parallel issues for one
-- animal give one licence and nineteen conflicts, whatever the
-- application checked before. Licences sold twice for one term before
-- this index existed keep the first; the later ones are revoked, as a
-- clerk would have done on finding them.
UPDATE licences SET status = 'revoked'
WHERE status = 'active' AND EXISTS (
	SELECT 1 FROM licences o
	WHERE o.status = 'active' AND o.animal_id = licences.animal_id AND o.jurisdiction = licences.jurisdiction
		AND o.kind = licences.kind AND o.expires_on = licences.expires_on AND o.id < licences.id);
CREATE UNIQUE INDEX licences_one_active ON licences (animal_id, jurisdiction, kind, expires_on) WHERE status = 'active';
