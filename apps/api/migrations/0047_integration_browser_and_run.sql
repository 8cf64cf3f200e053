-- Accounting integrations (ADR 041):
-- * an OAuth state is bound to the browser that asked for it (the hash of a one-use cookie), so a
--   consent link sent to someone else cannot connect their company to this business;
-- * a sync run's lease names the run, so a run that lost it (a reconnect, a lapse) cannot release
--   or overwrite the lease of the run that holds it now.
ALTER TABLE integration_oauth_states ADD COLUMN browser_hash text;
ALTER TABLE integrations ADD COLUMN sync_run text;
-- A record held back because what it needs is not at the provider yet (an invoice's customer, a
-- payment's invoice): it goes by itself once that one is there, without waiting for a change.
ALTER TABLE integration_links ADD COLUMN waiting_for text CHECK (waiting_for IN ('customer', 'invoice'));
