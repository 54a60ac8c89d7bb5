"""``ray start`` kept on 127.0.0.1, for the cluster tests (run as a script, not imported).

Ray maps 127.0.0.1 to the machine's routable address and refuses a second node when told to
stay on loopback (``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0``). The tests only ever use
127.0.0.1, so this launcher lets both nodes of the local test cluster stay there; the
processes it starts inherit that variable and stay on loopback too.
"""

import sys

import ray._private.ray_constants as ray_constants
import ray._private.services as services
from ray.scripts.scripts import main

ray_constants.ENABLE_RAY_CLUSTER = True  # allow a worker node next to the head
services.get_node_ip_address = lambda address=None: "127.0.0.1"

if __name__ == "__main__":
    sys.exit(main())
