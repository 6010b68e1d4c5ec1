//! Where a file the archive keeps and the same file made again first differ (used by the
//! replay of the turns and of the round alike, and using neither).

/// Where two texts first differ: `file differs from line N: kept "…", now "…"`.
pub fn first_difference(name: &str, kept: &[u8], now: &[u8]) -> Option<String> {
    if kept == now {
        return None;
    }
    let (Ok(k), Ok(n)) = (std::str::from_utf8(kept), std::str::from_utf8(now)) else {
        return Some(format!("{name} differs"));
    };
    let mut kl = k.lines();
    let mut nl = n.lines();
    let mut line = 1;
    loop {
        match (kl.next(), nl.next()) {
            (Some(a), Some(b)) if a == b => line += 1,
            (a, b) => {
                let show = |s: Option<&str>| {
                    s.map_or("the end of the file".to_string(), |s| {
                        let s: String = s.trim().chars().take(60).collect();
                        format!("\"{s}\"")
                    })
                };
                return Some(format!(
                    "{name} differs from line {line}: the archive has {}, the replay {}",
                    show(a),
                    show(b)
                ));
            }
        }
    }
}
