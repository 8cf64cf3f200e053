-- Searching by prefix (ADR 010): the least text above every text that begins with `prefix`,
-- comparing byte by byte as the text_pattern_ops indexes do (UTF-8 bytes sort as code points).
-- It is the prefix with its last code point raised by one, skipping the surrogates and carrying
-- past U+10FFFF. A search then reads `lower(x) ~>=~ lower($1) AND lower(x) ~<~ successor(lower($1))`:
-- both sides lower-cased by the same lower(), whatever the database's locale.
-- (A prefix of nothing but U+10FFFF has no successor; it gets itself followed by 64 more, which
-- leaves out only texts that begin with 65 or more of that non-character.)
CREATE FUNCTION text_prefix_successor(prefix text) RETURNS text
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  i integer := length(prefix);
  c integer;
BEGIN
  WHILE i > 0 LOOP
    c := ascii(substr(prefix, i, 1)) + 1;
    IF c = 55296 THEN c := 57344; END IF;
    IF c <= 1114111 THEN RETURN substr(prefix, 1, i - 1) || chr(c); END IF;
    i := i - 1;
  END LOOP;
  RETURN prefix || repeat(chr(1114111), 64);
END
$$;
