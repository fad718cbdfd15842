-- Splits in escrow_events (kind 'split', VotingEscrow.split): one row for the source, burnt (from its
-- owner to the zero address, amount_raw its whole amount, unlock_time and permanent the lock both new
-- veNFTs keep), then one row per veNFT minted from it (from the zero address to the owner, amount_raw
-- its part) with split_from the source. NULL in every other row, and in rows written before this
-- migration.
ALTER TABLE escrow_events ADD COLUMN IF NOT EXISTS split_from Nullable(UInt64) AFTER merged_into
