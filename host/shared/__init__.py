"""Small pieces every layer of the host uses and that have no job of their own: the JSON types,
the one error type `HostError`, the tool descriptor (`ToolDescriptor`, read from a `.tool.yaml`),
the cache folder and the YAML cache, private folders in the shared temp dir, lazily imported packages, URL globs and origins.

May import: nothing of the host (the bottom of the layers).
"""
