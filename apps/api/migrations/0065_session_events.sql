-- The person's signed-in devices (ADR 052): ending one, or all but this one, is in their security
-- log too, as is a sign-in from a device they had not used before.
ALTER TABLE user_security_events DROP CONSTRAINT user_security_events_action_check;
ALTER TABLE user_security_events ADD CONSTRAINT user_security_events_action_check CHECK (action IN (
  'two_factor.enabled',
  'two_factor.disabled',
  'two_factor.recovery_code_used',
  'two_factor.recovery_codes_replaced',
  'two_factor.codes_refused',
  'session.revoked',
  'session.others_revoked'
));
