"""Reading the files a team writes, safely: hostile bytes, untrusted regexes, and the JSON Schemas
of those files."""
