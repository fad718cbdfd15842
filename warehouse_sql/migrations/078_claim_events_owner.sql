-- The recipient of a reward claim: the veNFT's owner at the claim (the Voter pays the owner), so
-- an account's claims are found without replaying the veNFT's ownership. '' in rows written
-- before this migration, until their days are read again.
ALTER TABLE claim_events ADD COLUMN IF NOT EXISTS owner String DEFAULT '' AFTER venft_id
