//! Evaluation files the engine can load at run time: a weights table for
//! the hand-written evaluation and an NNUE network.

use shuai_eval::nnue::Network;
use shuai_eval::Weights;
use std::sync::Arc;

/// The evaluation weights the engine plays with and where they came from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EvalWeights {
    /// The table file they were read from; empty for the built-in weights.
    pub file: String,
    /// The weights (shared, as they are large and rarely change).
    pub weights: Arc<Weights>,
}

impl EvalWeights {
    /// Reads a weights table (the `name value` text that `shuai-tools
    /// tune` writes; unlisted parameters keep their built-in values). An
    /// empty path or `<empty>` means the built-in weights.
    pub fn load(path: &str) -> Result<EvalWeights, String> {
        let path = path.trim();
        if path.is_empty() || path == "<empty>" {
            return Ok(EvalWeights::default());
        }
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        let weights = Weights::from_table(&text).map_err(|e| format!("{path}: {e}"))?;
        Ok(EvalWeights {
            file: path.to_string(),
            weights: Arc::new(weights),
        })
    }
}

/// The NNUE network the engine can play with and where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalNetwork {
    /// The network file it was read from; empty for the embedded network.
    pub file: String,
    /// The network (shared: it is large and rarely changes).
    pub network: Arc<Network>,
}

impl Default for EvalNetwork {
    /// The network built into the engine.
    fn default() -> EvalNetwork {
        EvalNetwork {
            file: String::new(),
            network: shuai_eval::nnue::shared_default_network(),
        }
    }
}

impl EvalNetwork {
    /// Reads a network file (as `shuai-tools train` writes it). An empty
    /// path or `<empty>` means the embedded network.
    pub fn load(path: &str) -> Result<EvalNetwork, String> {
        let path = path.trim();
        if path.is_empty() || path == "<empty>" {
            return Ok(EvalNetwork::default());
        }
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        let network = Network::from_bytes(&bytes).map_err(|e| format!("{path}: {e}"))?;
        Ok(EvalNetwork {
            file: path.to_string(),
            network: Arc::new(network),
        })
    }

    /// Where the network came from, for messages: its file, or "the
    /// embedded network".
    pub fn source(&self) -> &str {
        match self.file.as_str() {
            "" => "the embedded network",
            file => file,
        }
    }
}
