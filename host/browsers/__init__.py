"""The browsers sessions run in: launching and relaunching one (`browser`), with the Chromium
features it turns off (`chromium_features`), what a
`--browser-endpoint` URL names (`endpoint_specs`) and the pool of endpoints (`endpoints`),
Selenium Grid (`selenium_driver`), the driver's environment (`driver_env`), the driver started
before the host is imported (`early_driver`), the video encoder
(`video_encoder`) and the check at start-up (`startup_probe`).

May import: `host.settings`, `host.shared`.
"""
