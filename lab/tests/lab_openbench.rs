//! `lab openbench` end to end, as a user runs it: the password goes to the
//! server named and nowhere else, whatever proxy the environment names.

use crate::common;

use std::io::Read;
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::{lab_command, scratch};

// The stand-in OpenBench server of the lab's own tests.
use test_support::stand_in;

/// A listener that records whatever reaches it, then hangs up: a proxy
/// that would see every request sent through it.
fn listening_proxy() -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let received = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&received);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            stream.set_read_timeout(Some(Duration::from_millis(500))).unwrap();
            let mut bytes = vec![0; 4096];
            let read = stream.read(&mut bytes).unwrap_or(0);
            seen.lock().unwrap().push(String::from_utf8_lossy(&bytes[..read]).into_owned());
        }
    });
    (url, received)
}

#[test]
fn credentials_never_go_through_a_proxy() {
    let (proxy, through_proxy) = listening_proxy();
    let server = stand_in::status_server();
    // The server as the user names it: by `localhost`, which ureq would
    // send through the proxy unless told not to.
    let port = server.url.rsplit(':').next().unwrap();
    let named = format!("http://localhost:{port}");
    let results = scratch("openbench-proxy");
    let run = results.join("20261125T140000Z-openbench-tests");
    std::fs::create_dir_all(&run).unwrap();
    std::fs::write(run.join("run.json"), r#"{"command": "openbench-tests", "args": {}}"#).unwrap();
    let created = serde_json::json!({
        "server": named, "test_id": 42, "url": format!("{named}/test/42/"),
        "plan": {"variant": "razor-r1", "parent": "p003-3", "bounds": [0.0, 5.0], "tc": "10+0.1", "hash_mb": 8},
        "build": {"commit": stand_in::COMMIT, "repo": "https://github.com/someone/prunelab", "bench": 7357031,
                  "nps": 2400000, "nps_source": "--nps", "bench_variant": "baseline"},
        "info": "lab openbench ...", "created": "20261125T140000Z"
    });
    std::fs::write(run.join("records.jsonl"), format!("{created}\n")).unwrap();

    let mut command = lab_command(
        &["openbench", "status", "--server", &named, "--username", "lab", "--password", "secret"],
        &results,
    );
    for variable in ["HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"] {
        command.env(variable, &proxy);
    }
    command.env_remove("NO_PROXY").env_remove("no_proxy");
    let output = command.output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(*through_proxy.lock().unwrap(), Vec::<String>::new());
    // The server had both requests, each with the credentials.
    let requests = server.requests();
    let sent: Vec<(&str, Option<&str>, Option<&str>)> = requests
        .iter()
        .map(|request| (request.path.as_str(), request.field("username"), request.field("password")))
        .collect();
    assert_eq!(
        sent,
        [
            ("/api/workload/42/info/", Some("lab"), Some("secret")),
            ("/api/workload/42/results/", Some("lab"), Some("secret")),
        ]
    );
    std::fs::remove_dir_all(&results).unwrap();
}

#[test]
fn status_prints_a_tunes_current_values() {
    let server = stand_in::tune_status_server();
    let results = scratch("openbench-tune-status");
    let run = results.join("20261128T120000Z-openbench-tunes");
    std::fs::create_dir_all(&run).unwrap();
    std::fs::write(run.join("run.json"), r#"{"command": "openbench-tunes", "args": {}}"#).unwrap();
    let margin = serde_json::json!({"name": "ReverseFutilityDepthMargin", "is_float": false, "start": 90.0,
        "min": 50.0, "max": 200.0, "c_end": 10.0, "r_end": 0.002});
    let created = serde_json::json!({
        "server": server.url, "tune_id": 7, "url": format!("{}/tune/7/", server.url), "variant": "p002-1.5",
        "parameters": [margin], "iterations": 40, "pairs_per": 2, "tc": "N=10000",
        "build": {"commit": stand_in::COMMIT, "repo": "https://github.com/someone/prunelab", "bench": 1515025,
                  "nps": 2400000, "nps_source": "--nps", "bench_variant": "p002-1.5"},
        "info": "lab openbench ...", "created": "20261128T120000Z"
    });
    std::fs::write(run.join("records.jsonl"), format!("{created}\n")).unwrap();
    let output = lab_command(&["openbench", "status"], &results).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let printed = String::from_utf8_lossy(&output.stdout);
    let row = format!("| [7]({}/tune/7/) | p002-1.5 | running | N=10000 | 24 | 6.00 of 40 |", server.url);
    assert!(printed.contains(&row), "{printed}");
    assert!(
        printed.contains("| ReverseFutilityDepthMargin | 92.6181 | 90 | 50 | 200 | 11.9262 | 0.0027 |"),
        "{printed}"
    );
    std::fs::remove_dir_all(&results).unwrap();
}
