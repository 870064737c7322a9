//! A stand-in for an OpenBench server, in the test process on 127.0.0.1 at
//! an ephemeral port: just enough HTTP/1.1 to record each request (method,
//! path, headers, form) and answer it as the test's handler says, one
//! request a connection. The tests give it OpenBench's answers: the script
//! endpoint's redirects, the pages, the workload API's JSON.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

use serde_json::json;

/// The commit of every test the stand-ins serve.
pub const COMMIT: &str = "0123456789abcdef0123456789abcdef01234567";

/// A request as the stand-in received it.
#[derive(Clone, Debug)]
pub struct Request {
    pub method: String,
    pub path: String,
    pub headers: Vec<(String, String)>,
    /// The url-encoded body, decoded, in order.
    pub form: Vec<(String, String)>,
}

impl Request {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(key, _)| key.eq_ignore_ascii_case(name)).map(|(_, value)| value.as_str())
    }

    pub fn field(&self, name: &str) -> Option<&str> {
        self.form.iter().find(|(key, _)| key == name).map(|(_, value)| value.as_str())
    }
}

/// An answer: status, headers, body.
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Response {
    pub fn ok(content_type: &str, body: impl Into<String>) -> Response {
        Response { status: 200, headers: vec![("Content-Type".into(), content_type.into())], body: body.into() }
    }

    pub fn json(value: serde_json::Value) -> Response {
        Response::ok("application/json", value.to_string())
    }

    /// Django's `HttpResponseRedirect`, with cookies set.
    pub fn redirect(location: &str, cookies: &[&str]) -> Response {
        let mut headers = vec![("Location".to_string(), location.to_string())];
        headers.extend(cookies.iter().map(|cookie| ("Set-Cookie".to_string(), cookie.to_string())));
        Response { status: 302, headers, body: String::new() }
    }

    pub fn not_found() -> Response {
        Response { status: 404, headers: Vec::new(), body: "not found".into() }
    }
}

/// The running stand-in: its address and every request it has received.
pub struct StandIn {
    pub url: String,
    requests: Arc<Mutex<Vec<Request>>>,
}

impl StandIn {
    pub fn start(handler: impl Fn(&Request) -> Response + Send + 'static) -> StandIn {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a free port on 127.0.0.1");
        let url = format!("http://{}", listener.local_addr().unwrap());
        let requests = Arc::new(Mutex::new(Vec::new()));
        let recorded = Arc::clone(&requests);
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                serve(stream, &handler, &recorded);
            }
        });
        StandIn { url, requests }
    }

    pub fn requests(&self) -> Vec<Request> {
        self.requests.lock().unwrap().clone()
    }
}

/// Reads one request, records it, and answers it. It is recorded before
/// the answer is sent: a client that has its answer finds its request in
/// [`StandIn::requests`].
fn serve(stream: TcpStream, handler: &impl Fn(&Request) -> Response, recorded: &Mutex<Vec<Request>>) -> Option<()> {
    let mut reader = BufReader::new(stream.try_clone().ok()?);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let mut words = line.split_whitespace();
    let (method, path) = (words.next()?.to_string(), words.next()?.to_string());
    let mut headers = Vec::new();
    loop {
        line.clear();
        reader.read_line(&mut line).ok()?;
        let header = line.trim_end();
        if header.is_empty() {
            break;
        }
        let (key, value) = header.split_once(':')?;
        headers.push((key.trim().to_string(), value.trim().to_string()));
    }
    let length: usize = headers
        .iter()
        .find(|(key, _)| key.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, value)| value.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    let form = decode_form(&String::from_utf8_lossy(&body));
    let request = Request { method, path, headers, form };
    let response = handler(&request);
    recorded.lock().unwrap().push(request);
    let mut out =
        format!("HTTP/1.1 {} X\r\nContent-Length: {}\r\nConnection: close\r\n", response.status, response.body.len());
    for (key, value) in &response.headers {
        out.push_str(&format!("{key}: {value}\r\n"));
    }
    out.push_str("\r\n");
    out.push_str(&response.body);
    let mut stream = stream;
    stream.write_all(out.as_bytes()).ok()
}

/// A running test as OpenBench's `/api/workload/42/info/` gives it
/// (`model_utils.workload_to_dict`: the Test's fields, `dev` and `base`
/// as Engine dicts, `tri` as (losses, draws, wins), `penta` as (LL, LD,
/// DD, DW, WW)), and `/results/` one machine's row.
pub fn status_server() -> StandIn {
    StandIn::start(|request| match (request.method.as_str(), request.path.as_str()) {
        ("POST", "/api/workload/42/info/") => Response::json(json!({"info": {
            "id": 42, "author": "lab", "info": "lab openbench ...", "book_name": "UHO_4060_v2.epd",
            "dev_engine": "prunelab", "dev_options": "Threads=1 Hash=8 Variant=razor-r1",
            "dev_time_control": "10.0+0.10", "base_options": "Threads=1 Hash=8 Variant=p003-3",
            "base_time_control": "10.0+0.10", "test_mode": "SPRT", "elolower": 0.0, "eloupper": 5.0,
            "alpha": 0.05, "beta": 0.05, "lowerllr": -2.944438979166, "currentllr": 0.31,
            "upperllr": 2.944438979166, "games": 64, "passed": false, "failed": false,
            "finished": false, "deleted": false, "approved": true, "error": false,
            "dev": {"id": 1, "name": COMMIT, "source": "x", "sha": COMMIT, "bench": 7357031},
            "base": {"id": 2, "name": COMMIT, "source": "x", "sha": COMMIT, "bench": 7357031},
            "tri": [14, 30, 20], "penta": [2, 6, 12, 8, 4],
            "creation": "2026-11-25 14:00:00+00:00", "updated": "2026-11-25 14:30:00+00:00"
        }})),
        ("POST", "/api/workload/42/results/") => Response::json(json!({"results": [
            {"machine__id": 1, "machine__user__username": "lab", "games": 64, "LL": 2, "LD": 6, "DD": 12,
             "DW": 8, "WW": 4, "timeloss": 1, "crashes": 0, "active": true}
        ]})),
        _ => Response::not_found(),
    })
}

/// The digest of [`tune_status_server`]'s tune, as OpenBench's
/// `spsa_param_digest` writes it: a header, then a line a parameter, its
/// current value, c and r to 4 decimals and an int's start and bounds whole.
pub const TUNE_DIGEST: &str = "Name,Curr,Start,Min,Max,C,C_end,R,R_end\n\
                               ReverseFutilityDepthMargin,92.6181,90,50,200,11.9262,10.0000,0.0027,0.0020";

/// A running SPSA tune, number 7, as OpenBench's API gives it:
/// `/api/workload/7/info/` (`test_mode` SPSA, 24 games, its workload size
/// its 2 pairs an iteration, as `create_new_tune` sets it) and
/// `/api/spsa/7/digest/` ([`TUNE_DIGEST`], plain text).
pub fn tune_status_server() -> StandIn {
    StandIn::start(|request| match (request.method.as_str(), request.path.as_str()) {
        ("POST", "/api/workload/7/info/") => Response::json(json!({"info": {
            "id": 7, "author": "lab", "info": "lab openbench ...: SPSA of p002-1.5's ReverseFutilityDepthMargin",
            "book_name": "UHO_4060_v2.epd", "dev_engine": "prunelab", "dev_options": "Threads=1 Hash=16",
            "dev_time_control": "N=10000", "base_time_control": "N=10000", "test_mode": "SPSA",
            "workload_size": 2, "games": 24, "passed": false, "failed": false, "finished": false,
            "deleted": false, "approved": true, "error": false,
            "dev": {"id": 1, "name": COMMIT, "source": "x", "sha": COMMIT, "bench": 1515025},
            "base": {"id": 1, "name": COMMIT, "source": "x", "sha": COMMIT, "bench": 1515025},
            "tri": [5, 13, 6], "penta": [0, 3, 6, 3, 0],
            "creation": "2026-11-28 12:00:00+00:00", "updated": "2026-11-28 12:30:00+00:00"
        }})),
        ("POST", "/api/spsa/7/digest/") => Response::ok("text/plain", TUNE_DIGEST),
        ("POST", path) if path.starts_with("/api/") => {
            Response::json(json!({"error": "Requested Workload Id does not exist"}))
        }
        _ => Response::not_found(),
    })
}

/// `a=1&b=x+y%2F` as pairs, as a web server decodes a form.
fn decode_form(body: &str) -> Vec<(String, String)> {
    let decode = |text: &str| {
        let bytes = text.as_bytes();
        let mut out = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'+' => out.push(b' '),
                b'%' if i + 2 < bytes.len() => {
                    let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap_or("");
                    out.push(u8::from_str_radix(hex, 16).expect("a %XX escape"));
                    i += 2;
                }
                byte => out.push(byte),
            }
            i += 1;
        }
        String::from_utf8(out).expect("UTF-8 form")
    };
    body.split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            (decode(key), decode(value))
        })
        .collect()
}

#[test]
fn a_form_decodes_as_a_web_server_decodes_it() {
    assert_eq!(
        decode_form("a=1&test_bounds=%5B0.00%2C+5.00%5D&empty="),
        [("a".into(), "1".into()), ("test_bounds".into(), "[0.00, 5.00]".into()), ("empty".into(), String::new())]
    );
}
