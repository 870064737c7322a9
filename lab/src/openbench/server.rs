//! Talking to an OpenBench server, as its own scripts do: a test is created
//! through the script endpoint (`POST /scripts/` with `action=CREATE_TEST`
//! and the fields of OpenBench's `Scripts/create_test.py`, the user's name
//! and password among them), and read back through its API
//! (`/api/workload/<id>/info/` and `/results/`).
//!
//! The script endpoint answers as the web form does, with a redirect: to
//! `/index/` when the test was created, back to `/test/new/` with the
//! errors in the session when it was not, to `/login/` when the user cannot
//! create tests. It does not say the new test's number; the user's page
//! (`/user/<name>/`, read with the session the script endpoint opened)
//! lists the user's tests, and the newest whose `info` is the one this tool
//! sent, on the commit it sent, is the one.
//!
//! The script endpoint creates no SPSA tune: a tune is created through its
//! web page, `/tune/new/`, after logging in at `/login/` as a browser does
//! (Django's session and CSRF cookies); it answers with the same redirects.
//! A tune's current values are read from `/api/spsa/<id>/digest/`.

use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use serde_json::Value;

/// How long one request may take.
const TIMEOUT: Duration = Duration::from_secs(60);
/// How many of the user's newest tests are looked at for the one created.
const NEWEST_TESTS: usize = 20;
/// The cookie of Django's CSRF token, which a form sends back.
const CSRF_COOKIE: &str = "csrftoken";

/// What OpenBench creates: a test (an SPRT or fixed games) or an SPSA tune;
/// both are workloads, numbered in one sequence.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    Test,
    Tune,
}

impl Kind {
    /// Its name in OpenBench's addresses (`/tune/12/`) and in messages.
    pub fn word(self) -> &'static str {
        match self {
            Kind::Test => "test",
            Kind::Tune => "tune",
        }
    }

    /// What it is created through.
    fn form(self) -> &'static str {
        match self {
            Kind::Test => "the script endpoint",
            Kind::Tune => "the tune form",
        }
    }
}

/// An OpenBench server, and the user the tool acts as where it has one.
pub struct Server {
    /// `https://openbench.example`, no trailing slash.
    pub url: String,
    credentials: Option<Credentials>,
    agent: ureq::Agent,
}

/// A user's name and password, sent in the form of each request.
struct Credentials {
    username: String,
    password: String,
}

/// Why a test was not created, and whether it may exist all the same.
#[derive(Debug)]
pub struct CreateFailure {
    pub error: anyhow::Error,
    /// The request may have reached the server and created the test: the
    /// answer was lost, was a server error, or said it was created but the
    /// test could not be found.
    pub may_exist: bool,
}

impl CreateFailure {
    fn refused(error: anyhow::Error) -> CreateFailure {
        CreateFailure { error, may_exist: false }
    }

    fn unsure(error: anyhow::Error) -> CreateFailure {
        CreateFailure { error, may_exist: true }
    }
}

/// One test's results, as the workload API gives them.
#[derive(Clone, Debug, PartialEq)]
pub struct Workload {
    pub info: Value,
    /// Per machine: `games`, `timeloss`, `crashes`.
    pub results: Vec<Value>,
}

impl Server {
    /// The server at `url`, refused unless it is https or on this machine:
    /// the password travels in the form of every request that creates a
    /// test or reads a private server's API, so it never goes in clear
    /// text over a network. Nothing is sent here.
    pub fn new(url: &str, username: &str, password: &str) -> Result<Server> {
        let credentials = Credentials { username: username.to_string(), password: password.to_string() };
        Server::connect(url, Some(credentials))
    }

    /// The server at `url`, asked without credentials: a public server's
    /// API answers anyone.
    pub fn anonymous(url: &str) -> Result<Server> {
        Server::connect(url, None)
    }

    fn connect(url: &str, credentials: Option<Credentials>) -> Result<Server> {
        let url = url.trim_end_matches('/').to_string();
        let host = check_address(&url)?;
        // ureq takes a proxy from HTTP_PROXY, HTTPS_PROXY or ALL_PROXY. A
        // request that carries the password goes straight to the server
        // named, never through one: a proxy reads an http:// request in
        // clear, and is one more machine to trust. A server on this machine
        // needs no proxy. Only a public server's API, asked without
        // credentials, is reached through the environment's proxy.
        let direct = credentials.is_some() || is_loopback(&host);
        let proxy = if direct { None } else { ureq::Proxy::try_from_env() };
        let config = ureq::Agent::config_builder()
            .proxy(proxy)
            .http_status_as_error(false)
            .max_redirects(0)
            .max_redirects_will_error(false)
            .timeout_global(Some(TIMEOUT))
            .build();
        let agent = ureq::Agent::new_with_config(config);
        Ok(Server { url, credentials, agent })
    }

    /// The address of test `id`'s page.
    pub fn test_url(&self, id: u64) -> String {
        self.page_url(Kind::Test, id)
    }

    /// The address of a test's or a tune's page.
    pub fn page_url(&self, kind: Kind, id: u64) -> String {
        format!("{}/{}/{id}/", self.url, kind.word())
    }

    /// Creates a test from the `CREATE_TEST` fields (without the
    /// credentials and the action, which are added here) and returns its
    /// number. `info` and `commit` identify it on the user's page.
    pub fn create_test(&self, fields: &[(String, String)], info: &str, commit: &str) -> Result<u64, CreateFailure> {
        let user = self.user(Kind::Test)?;
        let mut form: Vec<(&str, &str)> = fields.iter().map(|(key, value)| (key.as_str(), value.as_str())).collect();
        form.extend([("username", user.username.as_str()), ("password", user.password.as_str())]);
        form.push(("action", "CREATE_TEST"));
        let endpoint = format!("{}/scripts/", self.url);
        let response = self.agent.post(&endpoint).send_form(form).map_err(|error| lost(error, &endpoint))?;
        self.created(Kind::Test, &endpoint, response, Cookies::default(), info, commit)
    }

    /// Creates a tune from the fields of OpenBench's tune page and returns
    /// its number. The script endpoint creates tests only, so this logs in
    /// and sends the page's form as a browser does (`/tune/new/`, with
    /// Django's CSRF token). `info` and `commit` identify it on the user's
    /// page.
    pub fn create_tune(&self, fields: &[(String, String)], info: &str, commit: &str) -> Result<u64, CreateFailure> {
        let user = self.user(Kind::Tune)?;
        let cookies = self.log_in(user).map_err(CreateFailure::refused)?;
        let endpoint = format!("{}/tune/new/", self.url);
        let form: Vec<(&str, &str)> = fields.iter().map(|(key, value)| (key.as_str(), value.as_str())).collect();
        let response = self.post_form(&endpoint, &cookies, &form).map_err(|error| lost(error, &endpoint))?;
        self.created(Kind::Tune, &endpoint, response, cookies, info, commit)
    }

    /// Posts one of OpenBench's web forms as a browser does: with the
    /// session's cookies, the CSRF token (the `csrftoken` cookie, sent back
    /// as `csrfmiddlewaretoken`), and the page itself as the Referer that
    /// Django's CSRF check wants over https.
    fn post_form(
        &self,
        page: &str,
        cookies: &Cookies,
        fields: &[(&str, &str)],
    ) -> Result<ureq::http::Response<ureq::Body>, ureq::Error> {
        let mut form = vec![("csrfmiddlewaretoken", cookies.get(CSRF_COOKIE).unwrap_or_default())];
        form.extend_from_slice(fields);
        self.agent
            .post(page)
            .header("Cookie", cookies.header().unwrap_or_default())
            .header("Referer", page)
            .send_form(form)
    }

    /// The user a create acts as.
    fn user(&self, kind: Kind) -> Result<&Credentials, CreateFailure> {
        self.credentials.as_ref().ok_or_else(|| {
            CreateFailure::refused(anyhow!("creating a {} on {} needs a user and password", kind.word(), self.url))
        })
    }

    /// Logs in through OpenBench's login page, as a browser does: Django
    /// checks that the form carries the `csrftoken` cookie the page set (as
    /// `csrfmiddlewaretoken`) and, over https, a Referer from the server
    /// itself. Returns the session's cookies, with the token the login
    /// rotated.
    fn log_in(&self, user: &Credentials) -> Result<Cookies> {
        let page = format!("{}/login/", self.url);
        let response = self.agent.get(&page).call().with_context(|| format!("cannot reach OpenBench at {page}"))?;
        let mut cookies = Cookies::default();
        cookies.absorb(&response);
        let status = response.status().as_u16();
        let body = read_body(response);
        if status != 200 {
            bail!("OpenBench answered {page} with HTTP {status}: {}", excerpt(&body));
        }
        if cookies.get(CSRF_COOKIE).is_none() {
            bail!("OpenBench's login page {page} set no `{CSRF_COOKIE}` cookie for its form");
        }
        let form = [("username", user.username.as_str()), ("password", user.password.as_str())];
        let response =
            self.post_form(&page, &cookies, &form).with_context(|| format!("cannot reach OpenBench at {page}"))?;
        cookies.absorb(&response);
        let status = response.status().as_u16();
        let location = redirect_path(&response, &self.url);
        let body = read_body(response);
        match location {
            Some(path) if path.starts_with("/index") => Ok(cookies),
            Some(path) if path.starts_with("/login") => {
                bail!("OpenBench refused to log in user `{}`: wrong user name or password", user.username)
            }
            _ => {
                bail!("OpenBench answered its login form {page} with HTTP {status}, not a redirect: {}", excerpt(&body))
            }
        }
    }

    /// What OpenBench's answer to a create says, as its form answers: a
    /// redirect to `/index/` when the test or tune was created (whose
    /// number is then found on the user's page), back to the form with the
    /// errors in the session when it was not, to `/login/` when the user
    /// cannot create.
    fn created(
        &self,
        kind: Kind,
        endpoint: &str,
        response: ureq::http::Response<ureq::Body>,
        mut cookies: Cookies,
        info: &str,
        commit: &str,
    ) -> Result<u64, CreateFailure> {
        let refused = |error: anyhow::Error| CreateFailure::refused(error);
        let (word, user) = (kind.word(), self.user(kind)?);
        let status = response.status().as_u16();
        cookies.absorb(&response);
        let location = response.headers().get("location").and_then(|value| value.to_str().ok()).map(str::to_string);
        let body = read_body(response);
        let Some(location) = location.filter(|_| (300..400).contains(&status)) else {
            let error = anyhow!(
                "OpenBench answered {endpoint} with HTTP {status}, not {}'s redirect: {}",
                kind.form(),
                excerpt(&body)
            );
            // A server error may come after the test was saved.
            return Err(if status >= 500 { CreateFailure::unsure(error) } else { refused(error) });
        };
        let path = location.trim_start_matches(&self.url);
        let cookie = cookies.header();
        // The session cookie goes only to this server.
        if !path.starts_with('/') {
            return Err(refused(anyhow!(
                "OpenBench at {} redirected {} to {location}, another server",
                self.url,
                kind.form()
            )));
        }
        if path.starts_with("/login") {
            return Err(refused(anyhow!(
                "OpenBench refused to create the {word}: user `{}` could not log in, or is not enabled to create tests",
                user.username
            )));
        }
        if !path.starts_with("/index") {
            let page = self.get_page(path, cookie.as_deref()).map_err(refused)?;
            let errors = page_messages(&page, "error-message");
            return Err(refused(anyhow!(
                "OpenBench refused the {word}{}",
                if errors.is_empty() {
                    format!(" (it sent the form back: {path})")
                } else {
                    format!(": {}", errors.join("; "))
                }
            )));
        }
        // Created: a failure from here on leaves a test to be found.
        let found = self.find(kind, info, commit, cookie.as_deref()).map_err(|error| {
            CreateFailure::unsure(error.context(format!("OpenBench accepted the {word}, and it could not be found")))
        })?;
        found.ok_or_else(|| {
            CreateFailure::unsure(anyhow!(
                "OpenBench accepted the {word}, but none of user {}'s newest {NEWEST_TESTS} {word}s on {} has the \
                 info `{info}` and commit {commit}",
                user.username,
                self.url
            ))
        })
    }

    /// The user's test whose `info` and commit are these, among their
    /// newest on the user's page (read with `cookie`, the session of the
    /// script endpoint, where there is one).
    pub fn find_test(&self, info: &str, commit: &str, cookie: Option<&str>) -> Result<Option<u64>> {
        self.find(Kind::Test, info, commit, cookie)
    }

    /// The user's test or tune whose `info` and commit are these.
    fn find(&self, kind: Kind, info: &str, commit: &str, cookie: Option<&str>) -> Result<Option<u64>> {
        let Some(user) = &self.credentials else {
            bail!("finding a user's {} on {} needs the user", kind.word(), self.url)
        };
        let page = self.get_page(&format!("/user/{}/", user.username), cookie)?;
        for id in workload_ids(&page, kind).into_iter().take(NEWEST_TESTS) {
            let workload = self.info(id)?;
            if workload["info"].as_str() == Some(info) && workload["dev"]["sha"].as_str() == Some(commit) {
                return Ok(Some(id));
            }
        }
        Ok(None)
    }

    /// Test `id`'s settings and totals: `/api/workload/<id>/info/`.
    pub fn info(&self, id: u64) -> Result<Value> {
        let mut answer = self.api(id, "info")?;
        match answer.get_mut("info") {
            Some(info) => Ok(info.take()),
            None => bail!("OpenBench test {id}: {}", api_error(&answer)),
        }
    }

    /// Test `id`'s settings, totals and per-machine results.
    pub fn workload(&self, id: u64) -> Result<Workload> {
        let info = self.info(id)?;
        let mut answer = self.api(id, "results")?;
        let results = match answer.get_mut("results").map(Value::take) {
            Some(Value::Array(results)) => results,
            _ => bail!("OpenBench test {id} results: {}", api_error(&answer)),
        };
        Ok(Workload { info, results })
    }

    /// An API query of a workload, with the credentials where there are
    /// any (a server that requires a login to view reads them; others
    /// ignore them).
    fn api(&self, id: u64, query: &str) -> Result<Value> {
        let endpoint = format!("{}/api/workload/{id}/{query}/", self.url);
        let body = self.api_text(&endpoint)?;
        serde_json::from_str(&body)
            .map_err(|error| anyhow!("{endpoint} did not answer JSON ({error}): {}", excerpt(&body)))
    }

    /// Tune `id`'s SPSA `query` (`digest`: each parameter's current value,
    /// start, bounds, c and r), the plain text OpenBench's
    /// `/api/spsa/<id>/<query>/` answers.
    pub fn spsa(&self, id: u64, query: &str) -> Result<String> {
        let endpoint = format!("{}/api/spsa/{id}/{query}/", self.url);
        let body = self.api_text(&endpoint)?;
        // OpenBench answers a refusal (no such workload, no login) as JSON.
        if let Ok(answer) = serde_json::from_str::<Value>(&body) {
            bail!("OpenBench tune {id} {query}: {}", api_error(&answer));
        }
        Ok(body)
    }

    /// The body of an API answer; anything but HTTP 200 is an error.
    fn api_text(&self, endpoint: &str) -> Result<String> {
        let form: Vec<(&str, &str)> = match &self.credentials {
            Some(user) => vec![("username", user.username.as_str()), ("password", user.password.as_str())],
            None => Vec::new(),
        };
        let response = self.post(endpoint, form)?;
        let status = response.status().as_u16();
        let body = read_body(response);
        if status != 200 {
            bail!("OpenBench answered {endpoint} with HTTP {status}: {}", excerpt(&body));
        }
        Ok(body)
    }

    /// Sends `form` to `endpoint`.
    fn post(&self, endpoint: &str, form: Vec<(&str, &str)>) -> Result<ureq::http::Response<ureq::Body>> {
        self.agent.post(endpoint).send_form(form).with_context(|| format!("cannot reach OpenBench at {endpoint}"))
    }

    fn get_page(&self, path: &str, cookie: Option<&str>) -> Result<String> {
        let address = format!("{}{path}", self.url);
        let mut request = self.agent.get(&address);
        if let Some(cookie) = cookie {
            request = request.header("Cookie", cookie);
        }
        let response = request.call().with_context(|| format!("cannot reach OpenBench at {address}"))?;
        let status = response.status().as_u16();
        let body = read_body(response);
        if status != 200 {
            bail!("OpenBench answered {address} with HTTP {status}: {}", excerpt(&body));
        }
        Ok(body)
    }
}

/// A create's request that failed: refused when it cannot have reached
/// the server, else unsure.
fn lost(error: ureq::Error, endpoint: &str) -> CreateFailure {
    let reached = may_have_arrived(&error);
    let error = anyhow!(error).context(format!("cannot reach OpenBench at {endpoint}"));
    if reached {
        CreateFailure::unsure(error.context("the request may have arrived: the answer was lost"))
    } else {
        CreateFailure::refused(error)
    }
}

/// Whether a request that failed may have reached the server: anything but
/// a failure to find it or to connect.
fn may_have_arrived(error: &ureq::Error) -> bool {
    match error {
        ureq::Error::HostNotFound | ureq::Error::ConnectionFailed | ureq::Error::BadUri(_) => false,
        ureq::Error::Io(io) => io.kind() != std::io::ErrorKind::ConnectionRefused,
        _ => true,
    }
}

/// `https://HOST[:PORT]`, or `http://` to a loopback address
/// (127.0.0.0/8, ::1, localhost), where the password never leaves the
/// machine; the host.
fn check_address(url: &str) -> Result<String> {
    let (scheme, rest) = url
        .split_once("://")
        .with_context(|| format!("--server {url}: expected an https:// address, such as https://openbench.example"))?;
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    if authority.contains('@') {
        bail!("--server {url}: give the user with --username, not in the address");
    }
    let host = match authority.strip_prefix('[') {
        Some(bracketed) => bracketed.split(']').next().unwrap_or_default(),
        None => authority.split(':').next().unwrap_or_default(),
    };
    if host.is_empty() {
        bail!("--server {url}: no host in the address");
    }
    match scheme.to_ascii_lowercase().as_str() {
        "https" => Ok(host.to_string()),
        "http" if is_loopback(host) => Ok(host.to_string()),
        "http" => bail!(
            "--server {url}: plain http would send the password in clear text to {host}; use https:// (http:// \
             only to this machine: 127.0.0.1, ::1, localhost)"
        ),
        _ => bail!("--server {url}: expected an https:// address, such as https://openbench.example"),
    }
}

/// 127.0.0.0/8, ::1 or `localhost`: an address that does not leave the
/// machine.
fn is_loopback(host: &str) -> bool {
    if host.eq_ignore_ascii_case("localhost") {
        return true;
    }
    host.parse::<std::net::IpAddr>().is_ok_and(|address| address.is_loopback())
}

fn read_body(response: ureq::http::Response<ureq::Body>) -> String {
    response.into_body().read_to_string().unwrap_or_else(|error| format!("(unreadable body: {error})"))
}

/// The cookies of a session, as the server set them: the latest value of
/// each name.
#[derive(Debug, Default)]
struct Cookies(Vec<(String, String)>);

impl Cookies {
    /// Takes the cookies a response sets (`Set-Cookie: name=value; ...`).
    fn absorb(&mut self, response: &ureq::http::Response<ureq::Body>) {
        let set = response.headers().get_all("set-cookie").iter().filter_map(|value| value.to_str().ok());
        for cookie in set {
            let pair = cookie.split(';').next().unwrap_or_default();
            let Some((name, value)) = pair.split_once('=') else { continue };
            let (name, value) = (name.trim().to_string(), value.trim().to_string());
            self.0.retain(|(known, _)| *known != name);
            self.0.push((name, value));
        }
    }

    fn get(&self, name: &str) -> Option<&str> {
        self.0.iter().find(|(known, _)| known == name).map(|(_, value)| value.as_str())
    }

    /// The `Cookie` header that sends them back; `None` without any.
    fn header(&self) -> Option<String> {
        let pairs: Vec<String> = self.0.iter().map(|(name, value)| format!("{name}={value}")).collect();
        (!pairs.is_empty()).then(|| pairs.join("; "))
    }
}

/// Where a redirect sends, as a path of `server`; `None` for any other answer.
fn redirect_path(response: &ureq::http::Response<ureq::Body>, server: &str) -> Option<String> {
    let status = response.status().as_u16();
    let location = response.headers().get("location")?.to_str().ok()?;
    (300..400).contains(&status).then(|| location.trim_start_matches(server).to_string())
}

/// The text of a page's `<div class="{class}"><pre>...</pre>` messages
/// (how OpenBench shows a form's errors), unescaped.
fn page_messages(page: &str, class: &str) -> Vec<String> {
    let marker = format!("class=\"{class}\"");
    page.match_indices(&marker)
        .filter_map(|(at, _)| {
            let rest = &page[at..];
            let start = rest.find("<pre>")? + "<pre>".len();
            let end = rest[start..].find("</pre>")? + start;
            Some(unescape(rest[start..end].trim()))
        })
        .collect()
}

/// The numbers of the tests (or tunes) a page links to (`/test/<id>/`,
/// `/tune/<id>/`), newest first.
fn workload_ids(page: &str, kind: Kind) -> Vec<u64> {
    let link = format!("/{}/", kind.word());
    let mut ids: Vec<u64> = page
        .match_indices(&link)
        .filter_map(|(at, found)| {
            let rest = &page[at + found.len()..];
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            rest[digits.len()..].starts_with('/').then(|| digits.parse().ok()).flatten()
        })
        .collect();
    ids.sort_unstable_by(|a, b| b.cmp(a));
    ids.dedup();
    ids
}

/// HTML's escapes, as Django writes them.
fn unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#x27;", "'")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// What an API answer says went wrong.
fn api_error(answer: &Value) -> String {
    answer["error"].as_str().map_or_else(|| format!("unexpected answer {answer}"), str::to_string)
}

/// The start of a body, for an error message.
fn excerpt(body: &str) -> String {
    let flat: String = body.split_whitespace().collect::<Vec<_>>().join(" ");
    match flat.char_indices().nth(300) {
        Some((at, _)) => format!("{}...", &flat[..at]),
        None => flat,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_gives_its_error_messages_and_its_tests() {
        let page =
            "<div class=\"error-message\">\n<pre>Unable to parse a Bench for abc\nMain &#x27;x&#x27; &amp; y</pre>\n\
                    </div><a href=\"/test/12/\">razor</a><a href=\"/test/9/\">x</a><a href=\"/test/12/\">again</a>\
                    <a href=\"/test/new/\">new</a><a href=\"/tune/13/\">tune</a>";
        assert_eq!(page_messages(page, "error-message"), ["Unable to parse a Bench for abc\nMain 'x' & y"]);
        assert!(page_messages(page, "warning-message").is_empty());
        assert_eq!(workload_ids(page, Kind::Test), [12, 9]);
        assert_eq!(workload_ids(page, Kind::Tune), [13]);
    }

    #[test]
    fn a_server_is_https_or_on_this_machine() {
        let server = Server::new("http://127.0.0.1:8000/", "u", "p").unwrap();
        assert_eq!(server.test_url(3), "http://127.0.0.1:8000/test/3/");
        for accepted in [
            "https://openbench.example",
            "HTTPS://openbench.example:8443/",
            "http://localhost:8000",
            "http://127.8.9.10",
            "http://[::1]:8000",
        ] {
            assert!(check_address(accepted).is_ok(), "{accepted}");
        }
        let refusal = |url: &str| check_address(url).unwrap_err().to_string();
        for (url, host) in [
            ("http://openbench.example", "openbench.example"),
            ("http://192.0.2.7:8000", "192.0.2.7"),
            ("http://127.0.0.1.example.com/", "127.0.0.1.example.com"),
            ("http://0.0.0.0:8000", "0.0.0.0"),
            ("http://[2001:db8::1]:8000", "2001:db8::1"),
        ] {
            assert_eq!(
                refusal(url),
                format!(
                    "--server {url}: plain http would send the password in clear text to {host}; use https:// \
                     (http:// only to this machine: 127.0.0.1, ::1, localhost)"
                )
            );
        }
        assert_eq!(
            refusal("127.0.0.1:8000"),
            "--server 127.0.0.1:8000: expected an https:// address, such as https://openbench.example"
        );
        assert_eq!(
            refusal("http://user@127.0.0.1"),
            "--server http://user@127.0.0.1: give the user with --username, not in the address"
        );
    }
}
