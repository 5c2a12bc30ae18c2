// An init script for host.yaml's `init-script:` (docs/host.md, "A config file"): it runs in every
// page before the page's own scripts, here marking a cookie banner as already answered.
window.localStorage.setItem("cookie-consent", "rejected");
window.__consentAnswered = true;
