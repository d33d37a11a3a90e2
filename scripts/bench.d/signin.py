"""A person signed in through the device flow, for the benchmarks: the sign-in page driven with
http.client as a browser without scripts would (its cookie, the CSRF token of each page), and
`marquee login` approved through it; and an application's token."""
import http.client, json, re, subprocess, urllib.parse

FORM = {"Content-Type": "application/x-www-form-urlencoded"}
DEV_CLIENT = ("marquee-dev", "marquee-dev-secret")
LOGIN_CODE = re.compile(r"the code ([A-Z]{4}-[A-Z]{4})")


class Page:
    def __init__(self, port, source=None):
        """`source`: the loopback address the browser connects from (127.0.0.1 unless given), so
        that several people's browsers are counted apart by the server's per-address limits."""
        self.port, self.cookies, self.csrf = port, {}, ""
        self.source = (source, 0) if source else None

    @property
    def cookie(self):
        return "; ".join(f"{name}={value}" for name, value in sorted(self.cookies.items())) or None

    def request(self, method, path, fields=None):
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30, source_address=self.source)
        headers = dict(FORM) if fields is not None else {}
        if self.cookie: headers["Cookie"] = self.cookie
        body = urllib.parse.urlencode({**(fields or {}), "csrf": self.csrf}) if fields is not None else None
        c.request(method, path, body, headers)
        answer = c.getresponse(); html = answer.read().decode()
        for value in answer.headers.get_all("Set-Cookie") or []:
            name, _, kept = value.split(";", 1)[0].partition("=")
            if "Max-Age=0" in value: self.cookies.pop(name, None)
            else: self.cookies[name] = kept
        found = re.search(r'name="csrf" value="([^"]+)"', html)
        if found: self.csrf = found.group(1)
        if answer.status == 303: return self.request("GET", answer.headers["Location"])
        return answer.status, html


def approve(port, user_code, name, password="bench password", sign_up=True, source=None):
    page = Page(port, source)
    page.request("GET", f"/device?user_code={user_code}")
    page.request("POST", "/device/sign-up" if sign_up else "/device/sign-in", {"name": name, "password": password})
    page.request("POST", "/device/code", {"user_code": user_code})
    status, html = page.request("POST", "/device/decide", {"decision": "approve", "user_code": user_code})
    assert status == 200 and "signed in as" in html, (status, html[:300])


def app_token(port, client=DEV_CLIENT):
    """An application's access token (the client credentials grant)."""
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    c.request("POST", "/api/auth/token", urllib.parse.urlencode({"grant_type": "client_credentials", "client_id": client[0], "client_secret": client[1]}), FORM)
    answer = c.getresponse()
    granted = json.loads(answer.read())
    assert answer.status == 200, granted
    return granted["access_token"]


def device_tokens(port, name, sign_up=True, client=DEV_CLIENT):
    """A person's access and refresh tokens, by hand: a code, its approval, one poll."""
    def post(path, fields):
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        c.request("POST", path, urllib.parse.urlencode({**fields, "client_id": client[0], "client_secret": client[1]}), FORM)
        answer = c.getresponse(); return answer.status, json.loads(answer.read() or b"{}")
    _, started = post("/api/auth/device", {"device_name": "bench"})
    approve(port, started["user_code"], name, sign_up=sign_up)
    status, tokens = post("/api/auth/token", {"grant_type": "urn:ietf:params:oauth:grant-type:device_code", "device_code": started["device_code"]})
    assert status == 200, tokens
    return tokens["access_token"], tokens["refresh_token"]


def marquee_login(marquee, api, port, env, name, sign_up=True):
    """Runs `marquee login` and approves its code on the page as `name`."""
    login = subprocess.Popen([marquee, "login", "--env", api], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    code = None
    for line in login.stdout:
        found = LOGIN_CODE.search(line)
        if found: code = found.group(1); break
    assert code, login.stderr.read()
    approve(port, code, name, sign_up=sign_up)
    out, err = login.communicate(timeout=60)
    assert login.returncode == 0, (out, err)
