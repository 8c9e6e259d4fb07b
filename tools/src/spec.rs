//! Engine descriptions: how to start an engine and which protocol it
//! speaks, from the command line (`name=A,cmd=PATH,proto=uci,opt.Hash=64`)
//! or from a JSON config file.

use crate::tc::Limit;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::{Path, PathBuf};

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    /// UCI for Xiangqi with ranks 0–9 (the Pikafish dialect, Shuai).
    Uci,
    /// UCCI (ElephantEye, Shuai), times in milliseconds via `usemillisec`.
    Ucci,
    /// UCI with ranks 1–10 and `UCI_Variant xiangqi` (Fairy-Stockfish).
    Uci1,
}

impl Protocol {
    /// Parses `uci`, `ucci` or `uci1`.
    pub fn parse(text: &str) -> Result<Protocol, String> {
        match text.to_ascii_lowercase().as_str() {
            "uci" => Ok(Protocol::Uci),
            "ucci" => Ok(Protocol::Ucci),
            "uci1" => Ok(Protocol::Uci1),
            _ => Err(format!(
                "unknown protocol '{text}' (expected uci, ucci or uci1)"
            )),
        }
    }

    /// Converts a move from the engine's text to ICCS with ranks 0–9.
    /// `None` if the text is not a coordinate move in this protocol.
    pub fn move_from_engine(self, text: &str) -> Option<String> {
        match self {
            Protocol::Uci | Protocol::Ucci => {
                let t = text.to_ascii_lowercase();
                (t.len() == 4 && t.is_ascii()).then_some(t)
            }
            Protocol::Uci1 => {
                let t = text.to_ascii_lowercase();
                let b = t.as_bytes();
                let mut out = String::with_capacity(4);
                let mut i = 0;
                for _ in 0..2 {
                    let file = *b.get(i)?;
                    if !(b'a'..=b'i').contains(&file) {
                        return None;
                    }
                    i += 1;
                    let start = i;
                    while i < b.len() && b[i].is_ascii_digit() {
                        i += 1;
                    }
                    let rank: u32 = t.get(start..i)?.parse().ok()?;
                    if !(1..=10).contains(&rank) {
                        return None;
                    }
                    out.push(file as char);
                    out.push(char::from(b'0' + (rank - 1) as u8));
                }
                (i == b.len()).then_some(out)
            }
        }
    }

    /// Converts an ICCS move (ranks 0–9) to the engine's text.
    pub fn move_to_engine(self, iccs: &str) -> String {
        match self {
            Protocol::Uci | Protocol::Ucci => iccs.to_string(),
            Protocol::Uci1 => {
                let b = iccs.as_bytes();
                if b.len() != 4 {
                    return iccs.to_string();
                }
                format!(
                    "{}{}{}{}",
                    b[0] as char,
                    (b[1] - b'0') + 1,
                    b[2] as char,
                    (b[3] - b'0') + 1
                )
            }
        }
    }
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Protocol::Uci => "uci",
            Protocol::Ucci => "ucci",
            Protocol::Uci1 => "uci1",
        })
    }
}

/// How to start and set up one engine.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineSpec {
    /// Display name (PGN, reports).
    pub name: String,
    /// Program to run.
    pub cmd: String,
    /// Arguments passed to the program.
    #[serde(default)]
    pub args: Vec<String>,
    /// Working directory (default: the current one).
    #[serde(default)]
    pub dir: Option<PathBuf>,
    /// Protocol.
    #[serde(default = "default_proto")]
    pub proto: Protocol,
    /// Options sent after the handshake, in order.
    #[serde(default)]
    pub options: Vec<(String, String)>,
    /// A fixed depth per move for this engine, instead of the match's
    /// limit (anchors such as ElephantEye at depth 3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// Fixed nodes per move for this engine, instead of the match's limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
}

fn default_proto() -> Protocol {
    Protocol::Uci
}

/// A config file: `{"engines": [{"name": …, "cmd": …, "proto": …,
/// "dir": …, "args": […], "options": [["Hash", "64"], …]}]}`.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct EngineConfig {
    /// The engines the file describes.
    pub engines: Vec<EngineSpec>,
}

impl EngineConfig {
    /// Reads a config file.
    pub fn load(path: &Path) -> Result<EngineConfig, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
    }
}

impl EngineSpec {
    /// Parses `name=A,cmd=PATH,proto=uci|ucci|uci1,dir=DIR,args=A B,
    /// depth=N|nodes=N,opt.NAME=VALUE,…`. Keys given here override those of an engine of
    /// the same name in `config`; `cmd` is required unless the config has
    /// the engine.
    pub fn parse(text: &str, config: Option<&EngineConfig>) -> Result<EngineSpec, String> {
        let mut fields: Vec<(String, String)> = Vec::new();
        for part in text.split(',') {
            let part = part.trim();
            if part.is_empty() {
                continue;
            }
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| format!("engine field '{part}' is not KEY=VALUE (in '{text}')"))?;
            fields.push((k.trim().to_string(), v.trim().to_string()));
        }
        let name = fields
            .iter()
            .find(|(k, _)| k == "name")
            .map(|(_, v)| v.clone());
        let base = match (&name, config) {
            (Some(n), Some(c)) => c.engines.iter().find(|e| &e.name == n).cloned(),
            _ => None,
        };
        let mut spec = base.unwrap_or(EngineSpec {
            name: String::new(),
            cmd: String::new(),
            args: Vec::new(),
            dir: None,
            proto: Protocol::Uci,
            options: Vec::new(),
            depth: None,
            nodes: None,
        });
        for (k, v) in fields {
            match k.as_str() {
                "name" => spec.name = v,
                "cmd" => spec.cmd = v,
                "args" => spec.args = v.split_whitespace().map(str::to_string).collect(),
                "arg" => spec.args.push(v),
                "dir" => spec.dir = Some(PathBuf::from(v)),
                "proto" => spec.proto = Protocol::parse(&v)?,
                "depth" => {
                    spec.depth = Some(v.parse().ok().filter(|&d| d > 0).ok_or_else(|| {
                        format!("engine field depth={v}: not a positive whole number")
                    })?)
                }
                "nodes" => {
                    spec.nodes = Some(v.parse().ok().filter(|&n| n > 0).ok_or_else(|| {
                        format!("engine field nodes={v}: not a positive whole number")
                    })?)
                }
                _ => match k.strip_prefix("opt.") {
                    Some(opt) if !opt.is_empty() => {
                        spec.options.retain(|(n, _)| !n.eq_ignore_ascii_case(opt));
                        spec.options.push((opt.to_string(), v));
                    }
                    _ => return Err(format!("unknown engine field '{k}' (in '{text}')")),
                },
            }
        }
        if spec.cmd.is_empty() {
            return Err(format!("engine '{text}' has no cmd=PATH"));
        }
        if spec.depth.is_some() && spec.nodes.is_some() {
            return Err(format!("engine '{text}': give depth= or nodes=, not both"));
        }
        if spec.name.is_empty() {
            spec.name = Path::new(&spec.cmd)
                .file_name()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| spec.cmd.clone());
        }
        Ok(spec)
    }
}

impl EngineSpec {
    /// The engine's own fixed limit per move (`depth=` or `nodes=`), if
    /// it has one instead of the match's.
    pub fn limit(&self) -> Option<Limit> {
        self.depth
            .map(Limit::Depth)
            .or(self.nodes.map(Limit::Nodes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_command_line_form() {
        let s = EngineSpec::parse(
            "name=A,cmd=/bin/x,proto=uci1,opt.Hash=64,opt.Move Overhead=10,dir=/tmp,args=-a -b",
            None,
        )
        .unwrap();
        assert_eq!(s.name, "A");
        assert_eq!(s.proto, Protocol::Uci1);
        assert_eq!(s.options.len(), 2);
        assert_eq!(s.options[1], ("Move Overhead".into(), "10".into()));
        assert_eq!(s.args, vec!["-a", "-b"]);
        assert!(EngineSpec::parse("name=A", None).is_err());
        assert!(EngineSpec::parse("name=A,cmd=x,proto=xboard", None).is_err());
        assert_eq!(EngineSpec::parse("cmd=/a/b/eng", None).unwrap().name, "eng");
        let anchor = EngineSpec::parse("cmd=x,depth=3", None).unwrap();
        assert_eq!(anchor.limit(), Some(Limit::Depth(3)));
        assert_eq!(
            EngineSpec::parse("cmd=x,nodes=500", None).unwrap().limit(),
            Some(Limit::Nodes(500))
        );
        assert_eq!(s.limit(), None);
        assert!(EngineSpec::parse("cmd=x,depth=0", None).is_err());
        assert!(EngineSpec::parse("cmd=x,depth=3,nodes=9", None).is_err());
    }

    #[test]
    fn config_supplies_defaults() {
        let cfg: EngineConfig = serde_json::from_str(
            r#"{"engines":[{"name":"fsf","cmd":"/x/stockfish","proto":"uci1","options":[["Hash","16"]]}]}"#,
        )
        .unwrap();
        let s = EngineSpec::parse("name=fsf,opt.Hash=32", Some(&cfg)).unwrap();
        assert_eq!(s.cmd, "/x/stockfish");
        assert_eq!(s.proto, Protocol::Uci1);
        assert_eq!(s.options, vec![("Hash".into(), "32".into())]);
    }

    #[test]
    fn rank_conversion() {
        let p = Protocol::Uci1;
        assert_eq!(p.move_to_engine("h2e2"), "h3e3");
        assert_eq!(p.move_to_engine("a9a8"), "a10a9");
        assert_eq!(p.move_from_engine("a10a9").as_deref(), Some("a9a8"));
        assert_eq!(p.move_from_engine("h3e3").as_deref(), Some("h2e2"));
        assert_eq!(p.move_from_engine("h0e3"), None);
        assert_eq!(p.move_from_engine("h11e3"), None);
        assert_eq!(p.move_from_engine("h3e3x"), None);
        assert_eq!(
            Protocol::Uci.move_from_engine("H2E2").as_deref(),
            Some("h2e2")
        );
    }
}
