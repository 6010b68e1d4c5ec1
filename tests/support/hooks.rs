//! A webhook on 127.0.0.1 for the notice tests: a real HTTP/1.1 server on a std
//! `TcpListener`, started by the test, that keeps every request it receives (its path,
//! headers and body) and answers each with the next of the answers it was given (then
//! `200 OK`): an error status, a slow answer, a redirect.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How the server answers one request.
#[derive(Clone, Debug)]
pub enum Answer {
    Status(u16),
    /// `200 OK` after this long.
    Slow(Duration),
    /// `302 Found` to this address.
    Redirect(String),
}

/// One request received.
#[derive(Clone, Debug)]
pub struct Request {
    pub method: String,
    pub path: String,
    /// Names lower case.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Request {
    pub fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        self.headers
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).expect("the body is JSON")
    }
}

pub struct Hook {
    port: u16,
    received: Arc<Mutex<Vec<Request>>>,
}

impl Hook {
    pub fn start(answers: Vec<Answer>) -> Hook {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("addr").port();
        let received = Arc::new(Mutex::new(Vec::new()));
        let kept = Arc::clone(&received);
        std::thread::spawn(move || {
            let mut answers = answers.into_iter();
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                let Some(request) = read(&mut stream) else {
                    continue;
                };
                kept.lock().expect("lock").push(request);
                let answer = answers.next().unwrap_or(Answer::Status(200));
                let (status, extra) = match answer {
                    Answer::Status(s) => (s, String::new()),
                    Answer::Slow(d) => {
                        std::thread::sleep(d);
                        (200, String::new())
                    }
                    Answer::Redirect(to) => (302, format!("Location: {to}\r\n")),
                };
                let _ = write!(
                    stream,
                    "HTTP/1.1 {status} Status\r\n{extra}Content-Length: 0\r\nConnection: close\r\n\r\n"
                );
            }
        });
        Hook { port, received }
    }

    /// The address of `path` on this server.
    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    pub fn received(&self) -> Vec<Request> {
        self.received.lock().expect("lock").clone()
    }
}

/// An address on 127.0.0.1 where nothing listens: a connection to it is refused.
pub fn refused_url() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    drop(listener);
    format!("http://127.0.0.1:{port}/hook")
}

fn read(stream: &mut std::net::TcpStream) -> Option<Request> {
    stream.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    let mut reader = BufReader::new(stream.try_clone().ok()?);
    let mut first = String::new();
    reader.read_line(&mut first).ok()?;
    let mut parts = first.split_whitespace();
    let method = parts.next()?.to_string();
    let path = parts.next()?.to_string();
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).ok()?;
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        let (n, v) = line.split_once(':')?;
        headers.push((n.trim().to_ascii_lowercase(), v.trim().to_string()));
    }
    let length: usize = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some(Request {
        method,
        path,
        headers,
        body,
    })
}

/// HMAC-SHA256 of `body` keyed with `key`, as `sha256=<hex>`: written here from SHA-256
/// by RFC 2104's formula, H((K ^ opad) || H((K ^ ipad) || m)), to check the judge's
/// signature by another implementation than the one it signs with.
pub fn hmac_sha256(key: &[u8], body: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    const BLOCK: usize = 64;
    let mut k = if key.len() > BLOCK {
        Sha256::digest(key).to_vec()
    } else {
        key.to_vec()
    };
    k.resize(BLOCK, 0);
    let ipad: Vec<u8> = k.iter().map(|b| b ^ 0x36).collect();
    let opad: Vec<u8> = k.iter().map(|b| b ^ 0x5c).collect();
    let inner = Sha256::new()
        .chain_update(&ipad)
        .chain_update(body)
        .finalize();
    let outer = Sha256::new()
        .chain_update(&opad)
        .chain_update(inner)
        .finalize();
    let hex: String = outer.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256={hex}")
}
