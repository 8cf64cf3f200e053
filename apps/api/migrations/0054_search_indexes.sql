-- Finding anything (issue 35): the transaction history's search and the header's search find the
-- request that collects an invoice by the invoice's number (INV-0042), and a payout by its PAY-
-- number, each on an index of the business's own numbers.
CREATE INDEX payment_requests_invoice_number_idx ON payment_requests (business_id, invoice_number) WHERE invoice_number IS NOT NULL;
