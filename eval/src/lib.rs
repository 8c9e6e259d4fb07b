//! Static evaluation for Shuai (material, piece-square tables and more to come).
