"""The host's settings: the frozen value `HostConfig` every layer is handed (`config`), and what
it is made of and read from: the browser's options (`browser_options`), the bounds on arguments
and HTTP requests (`limits`), secrets (`secrets_file`), opt-in capabilities (`caps`), the config
file (`config_file`), the options `serve` and `executor` share (`options`) and the peer's option
names (`peer_options`). Reading an option or a file here is pure: nothing is started.

May import: `host.shared`.
"""
