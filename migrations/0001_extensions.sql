-- Geo search: points on the earth as 3-D cubes (ll_to_earth), GiST-indexable, KNN with <->.
-- earthdistance is not a trusted extension: on a server, a non-superuser needs it created beforehand.
CREATE EXTENSION IF NOT EXISTS cube;
CREATE EXTENSION IF NOT EXISTS earthdistance;
