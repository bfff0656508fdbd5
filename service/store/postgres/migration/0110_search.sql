-- Search the way clerks search (service.SearchService): the words of
-- owners' names and addresses and of animals' names in GIN indexes of
-- their text search vectors, owners' phones by their digits alone. The
-- expressions are those of search.go, character for character.
CREATE INDEX owners_search ON owners USING gin (to_tsvector('simple', name || ' ' || address || ' ' || city || ' ' || postcode));
CREATE INDEX animals_search ON animals USING gin (to_tsvector('simple', name));
CREATE INDEX owners_phone_digits ON owners (regexp_replace(phone, '[^0-9]', '', 'g'));
CREATE INDEX chips_code_prefix ON chips (code text_pattern_ops);
