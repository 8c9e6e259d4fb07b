//! Game-end and repetition rules (棋例): perpetual check, chase and mate
//! threat, the natural-move limit, mate and stalemate.
