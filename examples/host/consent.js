// An init script for host.yaml's `init-script:` (docs/host.md, "A config file"): it runs in every
// page before the page's own scripts, here marking a cookie banner as already answered.
window.__consentAnswered = true;
try {
  window.localStorage.setItem("cookie-consent", "rejected");
} catch {
  // data: and about: pages have no storage (the host tries the script on one at start)
}
