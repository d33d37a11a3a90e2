"""The device flow end to end in a real browser: `marquee login` in a terminal, the sign-in page in
headless Chromium driven by Selenium, as a person would: sign up, approve; deny; a code that
expired; a code used twice; and the CLI's polls never closer than the server's interval (so it
never needs a slow_down). Screenshots of the page at 320 and 1280 pixels wide are kept.

Usage: device-flow.py MARQUEE ARTEFACTS_DIR. Exits non-zero with the reason on any failure."""
import os, re, socket, subprocess, sys, tempfile, time
from datetime import datetime
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

marquee, artefacts = sys.argv[1], sys.argv[2]
os.makedirs(artefacts, exist_ok=True)
work = tempfile.mkdtemp(prefix="marquee-browser-")
env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(work, "config"), XDG_CACHE_HOME=os.path.join(work, "cache"))


def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close(); return port


def serve(*extra):
    port = free_port()
    log = open(os.path.join(work, f"server-{port}.log"), "w")
    process = subprocess.Popen([marquee, "serve", "--port", str(port), "--password-cost", "4", *extra], stdout=log, stderr=log, env=env)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close(); break
        except OSError:
            time.sleep(0.1)
    return process, port, log.name


def login(port):
    process = subprocess.Popen([marquee, "login", "--env", f"http://127.0.0.1:{port}/api/", "--device-name", "browser test"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    first = process.stdout.readline()
    complete = process.stdout.readline()
    code = re.search(r"the code ([A-Z]{4}-[A-Z]{4})", first).group(1)
    url = re.search(r"\(or open (\S+)\)", complete).group(1)
    return process, code, url


def shows(text, timeout=15):
    """Whether the page comes to show `text` (a click or a submit returns before the next page loads)."""
    try:
        WebDriverWait(browser, timeout).until(lambda driver: text in driver.page_source)
        return True
    except Exception:
        return False


def one_line(selector):
    """Whether the element laid out on one line: an inline element that wraps has a box per line."""
    return browser.execute_script("return document.querySelector(arguments[0]).getClientRects().length", selector) == 1


def check(condition, message):
    if not condition:
        raise SystemExit(f"browser device flow: {message}")


options = Options()
for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,900"]:
    options.add_argument(argument)
options.binary_location = "/usr/bin/chromium"
browser = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
browser.set_page_load_timeout(30)
browser.implicitly_wait(10)
servers = []
try:
    server, port, log = serve()
    servers.append(server)

    # Sign up and approve, following the complete link.
    cli, code, url = login(port)
    browser.get(url)
    check("/device?" not in browser.current_url, "the code stays in the address bar: " + browser.current_url)
    for field in browser.find_elements(By.CSS_SELECTOR, "input[type=text], input[type=password]"):
        check(browser.find_elements(By.CSS_SELECTOR, f"label[for='{field.get_attribute('id')}']"), f"no label for {field.get_attribute('id')}")
    browser.save_screenshot(os.path.join(artefacts, "sign-in-1280.png"))
    browser.set_window_size(320, 900)
    browser.save_screenshot(os.path.join(artefacts, "sign-in-320.png"))
    width = browser.execute_script("return document.documentElement.scrollWidth")
    check(width <= 320, f"the page is wider than 320 px: {width}")
    browser.find_element(By.ID, "sign-up-name").send_keys("alice")
    browser.find_element(By.ID, "sign-up-password").send_keys("correct horse")
    browser.find_element(By.ID, "sign-up-password").submit()
    check(shows("The code your device shows"), "no code page after signing up: " + browser.page_source[:300])
    check(browser.find_element(By.ID, "user-code").get_attribute("value") == code, "the link's code is not offered")
    browser.find_element(By.XPATH, "//button[text()='Continue']").click()
    check(shows("Approve a device"), "no approval page after confirming the code: " + browser.page_source[:300])
    page = browser.find_element(By.TAG_NAME, "main").text
    check("browser test" in page and code in page and "alice" in page, "the approval page names the device, the code and the account: " + page)
    browser.save_screenshot(os.path.join(artefacts, "approve-320.png"))
    check(one_line(".code"), "the code to compare wraps at 320 px")
    browser.set_window_size(1280, 900)
    browser.save_screenshot(os.path.join(artefacts, "approve-1280.png"))
    check(one_line(".code"), "the code to compare wraps at 1280 px")
    browser.find_element(By.XPATH, "//button[text()='Approve']").click()
    check(shows("is now signed in as alice"), "no confirmation after approving")
    out, err = cli.communicate(timeout=60)
    check(cli.returncode == 0 and "as alice" in out, f"marquee login did not sign in: {out} {err}")

    # The CLI's polls came no closer than the interval: it never needed a slow_down.
    polls = [datetime.fromisoformat(line[:24].replace("+0000", "+00:00")) for line in open(log) if "POST /api/auth/token" in line]
    gaps = [(b - a).total_seconds() for a, b in zip(polls, polls[1:])]
    check(polls and all(gap >= 4.5 for gap in gaps), f"polls closer than the 5 s interval: {gaps}")

    # The same code again: not offered.
    browser.get(f"http://127.0.0.1:{port}/device")
    check(shows("Signed in as"), "signed out of the page after approving")
    browser.find_element(By.ID, "user-code").send_keys(code)
    browser.find_element(By.ID, "user-code").submit()
    check(shows("not one a device is waiting with"), "a used code was offered again")
    check("Signed in as alice." in browser.find_element(By.TAG_NAME, "main").text, "the page forgot who is signed in after a used code")

    # Denied: the CLI ends non-zero in one line.
    # Signed in, a complete link only fills the code in: the code is tried (and counted) when
    # the person sends it, never by opening an address.
    cli, code, url = login(port)
    browser.get(url)
    check(shows("The code your device shows"), "a complete link showed more than the code form: " + browser.page_source[:300])
    check(browser.find_element(By.ID, "user-code").get_attribute("value") == code, "the second link's code is not offered")
    browser.find_element(By.XPATH, "//button[text()='Continue']").click()
    check(shows("Approve a device"), "no approval page for the second code")
    browser.find_element(By.XPATH, "//button[text()='Deny']").click()
    check(shows("was not let in"), "no word after denying: " + browser.page_source[:500])
    out, err = cli.communicate(timeout=60)
    check(cli.returncode == 1 and err.strip() == "marquee: the sign-in was denied on the page; nothing was signed in", f"denied: {cli.returncode} {err}")

    # Expired: a server whose codes last 2 seconds.
    short, short_port, _ = serve("--device-code-lifetime", "2")
    servers.append(short)
    cli, code, url = login(short_port)
    time.sleep(3)
    browser.get(f"http://127.0.0.1:{short_port}/device")
    browser.find_element(By.ID, "sign-up-name").send_keys("bob")
    browser.find_element(By.ID, "sign-up-password").send_keys("correct horse")
    browser.find_element(By.ID, "sign-up-password").submit()
    check(shows("Signed in as"), "no code page after signing up on the second server")
    browser.find_element(By.ID, "user-code").send_keys(code)
    browser.find_element(By.ID, "user-code").submit()
    check(shows("or it expired"), "an expired code was offered")
    check("Signed in as bob." in browser.find_element(By.TAG_NAME, "main").text, "the page forgot who is signed in after an expired code")
    out, err = cli.communicate(timeout=60)
    check(cli.returncode == 1 and "the code expired" in err, f"expired: {cli.returncode} {err}")
    print(f"browser device flow: sign up and approve, a used code, deny, an expired code: all as expected; screenshots in {artefacts}")
finally:
    browser.quit()
    for server in servers:
        server.terminate(); server.wait()
