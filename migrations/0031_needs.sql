-- docs/api/visits.md › Needs and matching: what a request needs of its helper, what a volunteer can offer, and the
-- languages and gender the matching reads. Codes are checked by the service (src/help/needs/needs.ts); the
-- constraints below only keep the arrays small and the gender one of three words.
ALTER TABLE requests
  ADD COLUMN needs text[] NOT NULL DEFAULT '{}' CHECK (cardinality(needs) <= 6),
  ADD COLUMN languages text[] NOT NULL DEFAULT '{}' CHECK (cardinality(languages) <= 5);

-- The needs a type's requests get when the requester says nothing (admins set them: PATCH /request-types/{id}).
ALTER TABLE request_types ADD COLUMN default_needs text[] NOT NULL DEFAULT '{}' CHECK (cardinality(default_needs) <= 6);

-- A volunteer's capabilities (wheelchair_vehicle stored with car, which it implies), languages, and gender:
-- gender is read only by the matching and shown only to the person (docs/privacy.md › Needs and gender).
ALTER TABLE users
  ADD COLUMN capabilities text[] NOT NULL DEFAULT '{}' CHECK (cardinality(capabilities) <= 5),
  ADD COLUMN languages text[] NOT NULL DEFAULT '{}' CHECK (cardinality(languages) <= 10),
  ADD COLUMN gender text CHECK (gender IN ('woman', 'man', 'another'));

-- A client's gender and languages (docs/api/on-behalf.md), read by the matching of the client's requests.
ALTER TABLE clients
  ADD COLUMN languages text[] NOT NULL DEFAULT '{}' CHECK (cardinality(languages) <= 5),
  ADD COLUMN gender text CHECK (gender IN ('woman', 'man', 'another'));

-- The new kind of check: a driving licence and insurance seen (car and wheelchair_vehicle count only while one is valid).
ALTER TABLE user_checks DROP CONSTRAINT user_checks_kind_check;
ALTER TABLE user_checks ADD CONSTRAINT user_checks_kind_check CHECK (kind IN ('identity', 'background', 'training', 'reference', 'driving'));
